"""Presenting trees to people: the self-contained HTML explorer page."""
