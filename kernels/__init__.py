"""Every numba (CPU) and numba.cuda (GPU) kernel of gpusolve, installed as ``gpusolve.kernels``.

CPU kernels live in ``cpu``-named modules and compile on import (cached on disk); CUDA
kernels live in ``cuda``-named modules and are only imported by the CUDA backend, the doctor
and the tests (which run them under ``NUMBA_ENABLE_CUDASIM=1`` where no GPU is present).
"""
