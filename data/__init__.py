"""The bundled word lists (see README.md here for provenance and counts)."""
