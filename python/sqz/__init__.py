"""sqz — Python bindings (ctypes) of libsqz: stencils, Life and heat on triangles, tetrahedra and NBB
fractals in compact space, with NumPy arrays in and out.

    import sqz
    with sqz.Context("cpu") as ctx:
        f = ctx.domain("fractal:sierpinski-carpet:4").field("u8")
        f.fill_random(0.4, seed=7).life(10, rule="B3/S23")
        state = f.read()          # (81, 81) uint8, holes 0

The library is found through $SQZ_LIBRARY (a path to libsqz.so), the libsqz.so that pip installed inside
this package, ctypes.util.find_library("sqz"), then the build/ directory of the sqz checkout this package
sits in.

Threads (the contract of the C library, include/sqz.h): any call may come from any thread. Calls on one
context, its domains and fields run one at a time, so fields of one context may be used from several
threads, their device work one after another; for work in parallel give each thread its own Context. Do
not close() an object while another thread still uses it, nor read Field.map while another thread sets
it. Ctrl-C cancels a long step call made in the main thread (KeyboardInterrupt; the field holds the state
of the steps done).
"""
from ._lib import lib as _lib
from .core import Context, Domain, Field, Timing, devices, edm, heat_alpha_max, rule_parse, rule_parse_states, version
from .errors import InputError, SqzError

__version__ = "0.1.0"
library_path = _lib.sqz_path  # the libsqz that was loaded

__all__ = ["Context", "Domain", "Field", "Timing", "SqzError", "InputError", "devices", "edm", "heat_alpha_max",
           "rule_parse", "rule_parse_states", "version", "library_path"]
