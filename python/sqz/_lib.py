"""_lib.py — finds and loads libsqz with ctypes and declares the prototype of every C function the package calls."""
import ctypes
import ctypes.util
import glob
import os
import threading

# Opaque handles: distinct pointer types, so ctypes refuses a field where a context is expected.
class _Context(ctypes.Structure):
    pass


class _Domain(ctypes.Structure):
    pass


class _Field(ctypes.Structure):
    pass


class _DeviceList(ctypes.Structure):
    pass


ContextP = ctypes.POINTER(_Context)
DomainP = ctypes.POINTER(_Domain)
FieldP = ctypes.POINTER(_Field)
DeviceListP = ctypes.POINTER(_DeviceList)

# void (*sqz_update_fn)(const void *self, const void *nb, uint32_t present, const void *param, void *out, void *user)
UPDATE_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p,
                             ctypes.c_void_p, ctypes.c_void_p)
# int (*sqz_progress_fn)(uint64_t done, uint64_t total, double cells_per_s, void *user_data)
PROGRESS_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_double, ctypes.c_void_p)

# int (*sqz_observer_fn)(sqz_field *field, uint64_t done, void *user_data)
OBSERVER_FN = ctypes.CFUNCTYPE(ctypes.c_int, FieldP, ctypes.c_uint64, ctypes.c_void_p)


class Observable(ctypes.Structure):
    """sqz_observable: kind, then the point (x, y, z) of an m2 or probe item."""
    _fields_ = [("kind", ctypes.c_int), ("x", ctypes.c_double), ("y", ctypes.c_double), ("z", ctypes.c_double)]


_i, _u32, _u64, _sz, _d = ctypes.c_int, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_size_t, ctypes.c_double
_s, _vp, _P = ctypes.c_char_p, ctypes.c_void_p, ctypes.POINTER

# name: (restype, argtypes) for every function of include/sqz.h that the package calls.
PROTOTYPES = {
    "sqz_version_number": (ctypes.c_uint, []),
    "sqz_version_string": (_s, []),
    "sqz_status_name": (_s, [_i]),
    "sqz_status_message": (_s, [_i]),
    "sqz_context_create": (_i, [_s, _s, _P(ContextP)]),
    "sqz_context_release": (None, [ContextP]),
    "sqz_last_error": (_s, [ContextP]),
    "sqz_context_backend": (_s, [ContextP]),
    "sqz_context_device_name": (_s, [ContextP]),
    "sqz_context_global_mem": (_u64, [ContextP]),
    "sqz_context_max_alloc": (_u64, [ContextP]),
    "sqz_context_timing": (_i, [ContextP, _P(_d), _P(_d)]),
    "sqz_context_set_progress": (_i, [ContextP, PROGRESS_FN, _vp, _d]),
    "sqz_device_list_create": (_i, [_P(DeviceListP)]),
    "sqz_device_list_release": (None, [DeviceListP]),
    "sqz_device_list_count": (_sz, [DeviceListP]),
    "sqz_device_list_str": (_s, [DeviceListP, _sz, _i]),
    "sqz_device_list_u64": (_u64, [DeviceListP, _sz, _i]),
    "sqz_domain_parse": (_i, [ContextP, _s, _P(DomainP)]),
    "sqz_domain_release": (None, [DomainP]),
    "sqz_domain_get_kind": (_i, [DomainP]),
    "sqz_domain_dims": (_i, [DomainP]),
    "sqz_domain_cells": (_u64, [DomainP]),
    "sqz_domain_side": (_u64, [DomainP]),
    "sqz_domain_spec": (_s, [DomainP]),
    "sqz_domain_contains": (_i, [DomainP, _u64, _u64, _u64]),
    "sqz_domain_fractal_params": (_i, [DomainP, _P(_i), _P(_i), _P(_i)]),
    "sqz_domain_layout_cells": (_i, [DomainP, _s, _P(_u64)]),
    "sqz_field_create": (_i, [DomainP, _i, _s, _P(FieldP)]),
    "sqz_field_release": (None, [FieldP]),
    "sqz_field_layout": (_s, [FieldP]),
    "sqz_field_bytes": (_u64, [FieldP]),
    "sqz_field_set_map": (_i, [FieldP, _s]),
    "sqz_field_map": (_s, [FieldP]),
    "sqz_field_set_block": (_i, [FieldP, _u32]),
    "sqz_field_write": (_i, [FieldP, _vp, _sz]),
    "sqz_field_read": (_i, [FieldP, _vp, _sz]),
    "sqz_field_fill_random": (_i, [FieldP, _d, _u64]),
    "sqz_field_fill_uniform": (_i, [FieldP, _u64]),
    "sqz_field_fill_const": (_i, [FieldP, _d]),
    "sqz_field_set_cell": (_i, [FieldP, _u64, _u64, _u64, _d]),
    "sqz_field_get_cell": (_i, [FieldP, _u64, _u64, _u64, _P(_d)]),
    "sqz_field_engine": (_s, [FieldP, _P(_s)]),
    "sqz_field_copy": (_i, [FieldP, FieldP]),
    "sqz_field_count": (_i, [FieldP, _P(_u64)]),
    "sqz_field_sum": (_i, [FieldP, _i, _P(_d)]),
    "sqz_observable_parse": (_i, [DomainP, _s, _P(Observable)]),
    "sqz_observable_width": (_sz, [_P(Observable), _i]),
    "sqz_field_observe": (_i, [FieldP, _P(Observable), _sz, _P(_d)]),
    "sqz_context_set_observer": (_i, [ContextP, _u64, OBSERVER_FN, _vp]),
    "sqz_rule_parse": (_i, [_s, _i, _P(_u32), _P(_u32), _s, _sz]),
    "sqz_rule_parse_states": (_i, [_s, _i, _P(_u32), _P(_u32), _P(_u32), _s, _sz]),
    "sqz_life_step": (_i, [FieldP, _s, _u64]),
    "sqz_life_step_custom": (_i, [FieldP, _s, _u64]),
    "sqz_life_check": (_i, [FieldP]),
    "sqz_life_check_rule": (_i, [FieldP, _s]),
    "sqz_stencil_step": (_i, [FieldP, _s, _s, _P(_d), _sz, _u64]),
    "sqz_stencil_step_fn": (_i, [FieldP, UPDATE_FN, _vp, _P(_d), _sz, _u64]),
    "sqz_heat_step": (_i, [FieldP, _d, _u64]),
    "sqz_heat_alpha_max": (_d, [_i]),
    "sqz_field_load_pbm": (_i, [FieldP, _s]),
    "sqz_field_save_pbm": (_i, [FieldP, _s]),
    "sqz_field_load_npy": (_i, [FieldP, _s]),
    "sqz_field_save_npy": (_i, [FieldP, _s]),
    "sqz_field_save_png": (_i, [FieldP, _s]),
    "sqz_field_save_png_sized": (_i, [FieldP, _s, _u64]),
    "sqz_field_read_compact": (_i, [FieldP, _vp, _u64]),
    "sqz_field_write_compact": (_i, [FieldP, _vp, _u64]),
    "sqz_field_save_rle": (_i, [FieldP, _s, _s]),
    "sqz_field_load_rle": (_i, [FieldP, _s, ctypes.c_int64, ctypes.c_int64]),
    "sqz_field_save_cells": (_i, [FieldP, _s, _s]),
    "sqz_field_load_cells": (_i, [FieldP, _s, ctypes.c_int64, ctypes.c_int64]),
    "sqz_field_load_clipped": (_i, [FieldP, _s, ctypes.c_int64, ctypes.c_int64, _P(_u64)]),
    "sqz_edm": (_i, [ContextP, _P(ctypes.c_float), _u64, _s, _P(ctypes.c_float)]),
}
# libsqz-hdf5 (include/sqz_hdf5.h): the HDF5 checkpoints, a library of their own over libsqz
HDF5_PROTOTYPES = {
    "sqz_field_save_h5": (_i, [FieldP, _s, _s, _u64]),
    "sqz_field_load_h5": (_i, [FieldP, _s, _vp, _sz, _P(_u64)]),
}


ABI_MAJOR = 0  # SQZ_VERSION_MAJOR of the library this package was written for


def _shortest(d, pattern):
    """The shortest name matching pattern in folder d (libsqz.so before libsqz.so.0.1.0), or None."""
    return next(iter(sorted(glob.glob(os.path.join(d, pattern)), key=len)), None)


def _candidates():
    """(where, path or None) in search order; see load() for the order."""
    env = os.environ.get("SQZ_LIBRARY")
    if env:
        yield "$SQZ_LIBRARY", env
        return  # an explicit choice is never silently replaced by another library
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))  # python/sqz -> the repository root
    places = [("inside the package (%s)" % here, here), ('ctypes.util.find_library("sqz")', None)]
    if os.path.exists(os.path.join(repo, "include", "sqz.h")):  # running from a checkout of sqz
        places += [("repository build directory %s" % os.path.join(repo, b), os.path.join(repo, b))
                   for b in ("build", "build-release", "build-debug")]
    for where, d in places:
        yield where, ctypes.util.find_library("sqz") if d is None else _shortest(d, "libsqz.so*")


def _bind(lib, prototypes):
    """Declare the prototypes on lib; the names lib lacks (nothing is declared then)."""
    missing = [name for name in prototypes if not hasattr(lib, name)]
    if not missing:
        for name, (restype, argtypes) in prototypes.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
    return missing


def load():
    """Load libsqz from, in order: $SQZ_LIBRARY (a file path; when set, nothing else is tried), the
    libsqz.so that pip installed inside this package, ctypes.util.find_library("sqz"), then build/ (and
    a few common build directory names) of the repository this package sits in. Raises ImportError
    naming every place it looked."""
    tried = []
    for what, path in _candidates():
        if not path:
            tried.append("%s: nothing found" % what)
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s: %s (%s)" % (what, path, e))
            continue
        major = None
        if hasattr(lib, "sqz_version_number"):
            lib.sqz_version_number.restype, lib.sqz_version_number.argtypes = ctypes.c_uint, []
            major = lib.sqz_version_number() // 10000
        if major != ABI_MAJOR:
            tried.append("%s: %s has major version %s, this package needs %d" % (what, path, major, ABI_MAJOR))
            continue
        missing = _bind(lib, PROTOTYPES)
        if missing:
            tried.append("%s: %s lacks %s (an older libsqz?)" % (what, path, ", ".join(missing[:3])))
            continue
        lib.sqz_path = path
        return lib
    raise ImportError("sqz: cannot load the C library libsqz. `pip install ./python` builds it into the package; "
                      "else build it (cmake -S . -B build && cmake --build build) and set SQZ_LIBRARY=/path/to/libsqz.so. "
                      "Looked at:\n  " + "\n  ".join(tried))


lib = load()
_hdf5 = []  # [(library or None, why not)] once looked for
_hdf5_lock = threading.Lock()


def hdf5():
    """libsqz-hdf5 (the HDF5 checkpoints), loaded at the first checkpoint, not at import: from beside
    the libsqz in use, else where the dynamic linker finds it: (library, "") or (None, why not)."""
    with _hdf5_lock:
        if not _hdf5:
            path = _shortest(os.path.dirname(os.path.abspath(lib.sqz_path)), "libsqz-hdf5.so*") or \
                ctypes.util.find_library("sqz-hdf5")
            try:
                h5 = ctypes.CDLL(path) if path else None
            except OSError as e:
                h5, path = None, "%s (%s)" % (path, e)
            if h5 is not None and _bind(h5, HDF5_PROTOTYPES):
                h5, path = None, "%s lacks the checkpoint functions" % path
            _hdf5.append((h5, "" if h5 else "no libsqz-hdf5 beside %s: %s" % (lib.sqz_path, path or "none found")))
        return _hdf5[0]
