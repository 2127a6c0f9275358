"""core.py — Context, Domain and Field: thin Python objects over sqz's handles, NumPy arrays in and out."""
import collections
import contextlib
import ctypes
import os
import signal
import threading
import weakref

import numpy as np

from ._lib import (lib, hdf5 as _load_hdf5, ContextP, DomainP, FieldP, DeviceListP, OBSERVER_FN, PROGRESS_FN,
                   UPDATE_FN, Observable)
from .errors import SQZ_ERR_UNSUPPORTED, check, error, invalid

# sqz_type <-> NumPy dtype; the short names of the CLI's --type
_TYPES = {"u8": (1, np.dtype(np.uint8)), "i32": (2, np.dtype(np.int32)),
          "f32": (3, np.dtype(np.float32)), "f64": (4, np.dtype(np.float64))}
_BY_DTYPE = {dt: (name, code) for name, (code, dt) in _TYPES.items()}
_KINDS = {1: "triangle", 2: "tetrahedron", 3: "fractal"}
_SUMS = {"pairwise": 0, "neumaier": 1}
_OBS_COM = 5  # SQZ_OBS_COM
_U64 = 1 << 64

Timing = collections.namedtuple("Timing", "kernel_s wall_s")
SQZ_ERR_CANCELLED = -2013
_HANDLES = threading.RLock()  # the parent/child bookkeeping of _Handle, from any thread

def _cstr(s, what):
    """str -> bytes for a const char * argument (None stays NULL)."""
    if s is None:
        return None
    if not isinstance(s, str):
        raise invalid("%s must be a str, not %s" % (what, type(s).__name__))
    if "\0" in s:
        raise invalid("%s %r holds a NUL character, which C would cut the text at" % (what, s))
    return s.encode()


def _u64(v, what):
    """A Python int that fits uint64_t, refused (not wrapped) otherwise."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) < _U64:
        raise invalid("%s must be an integer in [0, 2^64), got %r" % (what, v))
    return int(v)


def _params(params):
    """A sequence of numbers -> (double array or None, count)."""
    vals = [float(p) for p in params]
    return ((ctypes.c_double * len(vals))(*vals) if vals else None), len(vals)


def _fspath(path):
    """A path for a const char * argument; one with a NUL byte is refused, not cut short there."""
    p = os.fsencode(path)
    if b"\0" in p:
        raise invalid("path %r holds a NUL byte, which C would cut the path at" % (path,))
    return p


def _i64(v, what):
    """A Python int that fits int64_t, refused (not wrapped) otherwise."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not -(1 << 63) <= int(v) < (1 << 63):
        raise invalid("%s must be an integer in [-2^63, 2^63), got %r" % (what, v))
    return int(v)


_check_signals = ctypes.pythonapi.PyErr_CheckSignals  # runs Python's pending signal handlers (main thread only)
_check_signals.restype, _check_signals.argtypes = ctypes.c_int, []


class _Interrupt:
    """Ctrl-C for long calls, through the progress callback every Context installs. While a step call
    (life, heat, run, run_fn, life_custom) runs in the main thread, SIGINT only sets a flag; the
    callback (every 0.25 s of steps) runs the pending handler and returns non-zero once the flag is
    set, which cancels the call within a chunk of steps (the field holds the state of the steps
    done); then the handler that was there before is called, by default raising KeyboardInterrupt.
    Signals reach the main thread only: calls from other threads run to their end, as in Python."""

    def __init__(self):
        self._local = threading.local()
        self.fn = PROGRESS_FN(self._progress)

    def _progress(self, _done, _total, _rate, _user):
        _check_signals()
        return 1 if getattr(self._local, "hit", False) else 0

    @contextlib.contextmanager
    def armed(self):
        """Around one step call: SIGINT flags it (main thread, where a Python handler is installed)."""
        main = threading.current_thread() is threading.main_thread()
        prev = signal.getsignal(signal.SIGINT) if main else None
        if not callable(prev):  # another thread, or SIGINT ignored or left to the system
            yield
            return
        self._local.hit = False
        signal.signal(signal.SIGINT, self._flag)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, prev)
            if self._local.hit:
                self._local.hit = False
                prev(signal.SIGINT, None)  # KeyboardInterrupt, or what your handler does

    def _flag(self, _signum, _frame):
        self._local.hit = True


class _Handle:
    """A C handle owned by a Python object, released once and only after its children.

    Children (fields of a domain, domains of a context) hold a strong reference to their parent, so
    the parent outlives them in Python. close() closes the live children first; a parent closed while
    a child is still alive (possible only when the garbage collector finalizes a reference cycle in
    arbitrary order) defers its release until the last child is released."""

    _release = None  # the sqz_*_release function of the subclass

    def _init_handle(self, handle, parent):
        self._h = handle
        self._parent = parent
        self._closing = False
        self._open = 0  # children not yet released
        self._children = weakref.WeakSet()
        if parent is not None:
            with _HANDLES:
                parent._open += 1
                parent._children.add(self)

    def close(self):
        """Release the C object (and first those of every live child). Idempotent."""
        with _HANDLES:
            if getattr(self, "_closing", True):
                return
            self._closing = True
            for child in list(self._children):
                child.close()
            self._maybe_release()

    def _maybe_release(self):
        with _HANDLES:
            if self._closing and self._open == 0 and self._h is not None:
                handle, self._h = self._h, None
                type(self)._release(handle)
                if self._parent is not None:
                    self._parent._open -= 1
                    self._parent._maybe_release()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may already be gone
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def closed(self):
        """True once close() was called."""
        return self._closing

    def _handle(self):
        if self._closing:
            raise invalid("this %s was closed (or its context was)" % type(self).__name__)
        return self._h


class Context(_Handle):
    """A backend and device: ``Context(backend=None, device=None)``.

    backend: "opencl", "cpu", "cuda" or None ($SQZ_BACKEND, else "opencl", falling back to "cpu" when
    no OpenCL platform exists). device: "P:D", a case-insensitive substring of the device name, or None
    ($SQZ_DEVICE, else the first GPU, else the first device). A context manager; close() releases it
    (after closing its domains and fields). Threads: see the package docstring (any thread; one
    operation at a time per context). Ctrl-C cancels a long step call (see _Interrupt)."""

    _release = lib.sqz_context_release

    def __init__(self, backend=None, device=None):
        self._closing = True  # until the handle exists, close()/__del__ do nothing
        out = ContextP()
        check(lib.sqz_context_create(_cstr(backend, "backend"), _cstr(device, "device"), ctypes.byref(out)))
        self._init_handle(out, None)
        self._interrupt = _Interrupt()
        self._check(lib.sqz_context_set_progress(out, self._interrupt.fn, None, 0.0))

    def _check(self, status):
        check(status, self._h)

    @property
    def backend(self):
        """"opencl", "cpu" or "cuda"."""
        return lib.sqz_context_backend(self._handle()).decode()

    @property
    def device_name(self):
        return lib.sqz_context_device_name(self._handle()).decode(errors="replace")

    @property
    def global_mem(self):
        """Device memory in bytes."""
        return lib.sqz_context_global_mem(self._handle())

    @property
    def max_alloc(self):
        """Largest single buffer in bytes."""
        return lib.sqz_context_max_alloc(self._handle())

    def timing(self):
        """Timing(kernel_s, wall_s) of the last operation: device kernel time and end-to-end wall time."""
        k, w = ctypes.c_double(), ctypes.c_double()
        self._check(lib.sqz_context_timing(self._handle(), ctypes.byref(k), ctypes.byref(w)))
        return Timing(k.value, w.value)

    def domain(self, spec):
        """Parse a domain on this context: "triangle:N", "tetrahedron:N", "fractal:NAME:R"."""
        return Domain(spec, self)

    def __repr__(self):
        if self._closing:
            return "<sqz.Context closed>"
        return "<sqz.Context backend=%r device=%r>" % (self.backend, self.device_name)


class Domain(_Handle):
    """A domain: ``ctx.domain(spec)`` (or ``Domain(spec)`` without a context, for host analysis only).

    spec: "triangle:N" (0 <= x <= y < N), "tetrahedron:N" (x + y + z <= N - 1) or "fractal:NAME:R" with
    NAME sierpinski-triangle, sierpinski-carpet, vicsek-cross, vicsek-saltire or a pattern like "#./##"."""

    _release = lib.sqz_domain_release

    def __init__(self, spec, context=None):
        self._closing = True
        self.context = context
        ch = context._handle() if context is not None else None
        out = DomainP()
        check(lib.sqz_domain_parse(ch, _cstr(spec, "spec"), ctypes.byref(out)), ch)
        self._init_handle(out, context)

    def _check(self, status):
        check(status, self.context._h if self.context is not None else None)

    @property
    def kind(self):
        """"triangle", "tetrahedron" or "fractal"."""
        return _KINDS[lib.sqz_domain_get_kind(self._handle())]

    @property
    def dims(self):
        """2 or 3."""
        return lib.sqz_domain_dims(self._handle())

    @property
    def cells(self):
        """Number of domain cells |D|."""
        return lib.sqz_domain_cells(self._handle())

    @property
    def side(self):
        """Side of the embedding: N for simplices, s^R for fractals."""
        return lib.sqz_domain_side(self._handle())

    @property
    def shape(self):
        """Shape of the embedded array: (side, side) in 2D, (side, side, side) in 3D."""
        return (self.side,) * self.dims

    @property
    def spec(self):
        """Canonical spec string, e.g. "fractal:sierpinski-carpet:4"."""
        return lib.sqz_domain_spec(self._handle()).decode()

    @property
    def fractal_params(self):
        """(s, k, R) of a fractal (scale, replicas, level); None for simplices."""
        s, k, r = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        if self.kind != "fractal":
            return None
        self._check(lib.sqz_domain_fractal_params(self._handle(), ctypes.byref(s), ctypes.byref(k), ctypes.byref(r)))
        return (s.value, k.value, r.value)

    def contains(self, x, y, z=0):
        """True if the embedded cell (x, y, z) is a domain cell (z is ignored in 2D)."""
        if not all(isinstance(v, (int, np.integer)) and 0 <= v < _U64 for v in (x, y, z)):
            return False
        return bool(lib.sqz_domain_contains(self._handle(), int(x), int(y), int(z)))

    def layout_cells(self, layout):
        """Storage elements of a layout: "bb", "lambda", "block:RHO", "compact", "bits" (bits, padding included)."""
        n = ctypes.c_uint64()
        self._check(lib.sqz_domain_layout_cells(self._handle(), _cstr(layout, "layout"), ctypes.byref(n)))
        return n.value

    def field(self, dtype="u8", layout="compact"):
        """A new zero field: dtype "u8", "i32", "f32", "f64" or the NumPy dtype; layout "compact",
        "bb", "bits" (u8 cells 0/1, one bit each, Life-like rules), and for fractals "lambda" or "block:RHO"."""
        return Field(self, dtype, layout)

    def mask(self):
        """Boolean array of the embedded shape, True on domain cells (needs a context)."""
        with self.field("u8", "bb") as f:
            f.fill_random(1.0, 0)
            return f.read().astype(bool)

    def __repr__(self):
        return "<sqz.Domain closed>" if self._closing else "<sqz.Domain %s>" % self.spec


def _dtype(dtype):
    """("u8", code, np.dtype) of a short name or anything np.dtype takes; InputError otherwise."""
    if isinstance(dtype, str) and dtype in _TYPES:
        return (dtype,) + _TYPES[dtype]
    try:
        dt = np.dtype(dtype) if dtype is not None else None  # np.dtype(None) would be float64
    except TypeError:
        dt = None
    if dt not in _BY_DTYPE:
        raise invalid("unsupported dtype %r (sqz fields are u8, i32, f32 or f64)" % (dtype,))
    name, code = _BY_DTYPE[dt]
    return name, code, dt


class Field(_Handle):
    """Typed state on a domain in a layout: ``dom.field(dtype="u8", layout="compact")``.

    The embedded view (read/write) is a NumPy array of ``dom.shape`` indexed [y][x] (2D) or [z][y][x]
    (3D); cells outside the domain read as 0 and must be 0 when written. The step methods (life, heat,
    run, run_fn) return the field itself, so calls chain: ``f.life(10).read()``."""

    _release = lib.sqz_field_release

    def __init__(self, domain, dtype="u8", layout="compact"):
        self._closing = True
        self.domain = domain
        self.context = domain.context
        self.type_name, code, self.dtype = _dtype(dtype)
        out = FieldP()
        check(lib.sqz_field_create(domain._handle(), code, _cstr(layout, "layout"), ctypes.byref(out)),
              self.context._h if self.context is not None else None)
        self._block = 0
        self._init_handle(out, domain)

    def _check(self, status):
        self.context._check(status)

    def _step(self, fn, *args):
        """A step call that Ctrl-C cancels (see _Interrupt); returns the field."""
        with self.context._interrupt.armed():
            status = fn(self._handle(), *args)
        self._check(status)
        return self

    @property
    def shape(self):
        """Shape of the embedded array."""
        return self.domain.shape

    @property
    def layout(self):
        """Canonical layout string ("compact", "block:9", ...)."""
        return lib.sqz_field_layout(self._handle()).decode()

    @property
    def device_bytes(self):
        """Device bytes of all the field's buffers."""
        return lib.sqz_field_bytes(self._handle())

    @property
    def map(self):
        """Thread map (simplices: "bb", "ltm", "rb", "had", "rec", 3D "ltm3", ...; fractals "seq" or
        "group"; cuda "mma" or "alu"). None is the default; set None to restore it."""
        m = lib.sqz_field_map(self._handle()).decode()
        return m or None

    @map.setter
    def map(self, name):
        self._check(lib.sqz_field_set_map(self._handle(), _cstr(name, "map")))

    @property
    def block(self):
        """Block side rho of the launch (work-group edge); 0 = automatic."""
        return self._block

    @block.setter
    def block(self, rho):
        if isinstance(rho, bool) or not isinstance(rho, (int, np.integer)) or not 0 <= rho < 1 << 32:
            raise invalid("block must be an integer in [0, 2^32), got %r" % (rho,))
        self._check(lib.sqz_field_set_block(self._handle(), int(rho)))
        self._block = int(rho)

    def read(self):
        """The embedded state as a new NumPy array of shape ``self.shape`` and dtype ``self.dtype``."""
        a = np.zeros(self.shape, self.dtype)
        self._check(lib.sqz_field_read(self._handle(), a.ctypes.data, a.nbytes))
        return a

    def __array__(self, dtype=None, copy=None):
        a = self.read()
        return a if dtype is None else a.astype(dtype)

    def write(self, array):
        """Set the state from an embedded array of exactly ``self.shape`` and ``self.dtype`` (no casting).
        A non-zero value outside the domain raises InputError (SQZ_ERR_OUTSIDE_DOMAIN) naming the cell."""
        a = np.asarray(array)
        if a.dtype != self.dtype:
            raise invalid("write: array has dtype %s, the field is %s (%s); convert with .astype(np.%s)"
                          % (a.dtype, self.type_name, self.dtype, self.dtype.name))
        if a.shape != self.shape:
            raise invalid("write: array has shape %s, the field's domain %s needs %s"
                          % (a.shape, self.domain.spec, self.shape))
        a = np.ascontiguousarray(a)
        self._check(lib.sqz_field_write(self._handle(), a.ctypes.data, a.nbytes))
        return self

    def fill_random(self, density, seed):
        """Each domain cell is 1 with probability density (a counter-based hash of seed and the
        coordinates: identical on every backend, layout and map)."""
        self._check(lib.sqz_field_fill_random(self._handle(), float(density), _u64(seed, "seed")))
        return self

    def fill_uniform(self, seed):
        """Each domain cell of an f32/f64 field gets a uniform value in [0, 1) (same hash as fill_random)."""
        self._check(lib.sqz_field_fill_uniform(self._handle(), _u64(seed, "seed")))
        return self

    def fill_const(self, value):
        """Every domain cell gets value (u8/i32: an integer of the type's range; floats: finite)."""
        self._check(lib.sqz_field_fill_const(self._handle(), float(value)))
        return self

    def _coords(self, at):
        at = tuple(int(c) for c in at)
        dims = len(self.shape)
        if len(at) != dims or any(c < 0 for c in at):
            raise invalid("cell %r: a %dD domain takes %d non-negative coordinates (%s)"
                          % (at, dims, dims, "z, y, x" if dims == 3 else "y, x"))
        return (at[2], at[1], at[0]) if dims == 3 else (at[1], at[0], 0)

    def __setitem__(self, at, value):
        """field[y, x] = v (3D: field[z, y, x] = v): one domain cell, on the device (a point source:
        fill_const(0) then one cell). A hole or a cell outside the domain raises InputError."""
        x, y, z = self._coords(at)
        self._check(lib.sqz_field_set_cell(self._handle(), x, y, z, float(value)))

    def __getitem__(self, at):
        """field[y, x] (3D: field[z, y, x]): one domain cell's value, as a float."""
        x, y, z = self._coords(at)
        v = ctypes.c_double()
        self._check(lib.sqz_field_get_cell(self._handle(), x, y, z, ctypes.byref(v)))
        return v.value

    @property
    def engine(self):
        """(path, skipped): the engine path the last step ran and the faster paths skipped with their
        reasons ("path: reason; ..."), as sqz_field_engine reports them; ("", "") before a step."""
        skipped = ctypes.c_char_p()
        path = lib.sqz_field_engine(self._handle(), ctypes.byref(skipped))
        return path.decode(), (skipped.value or b"").decode()

    def copy_from(self, src):
        """Copy src's domain cells into this field (same domain spec and dtype, any layouts)."""
        self._check(lib.sqz_field_copy(self._handle(), src._handle()))
        return self

    def count(self):
        """Exact number of non-zero domain cells (device reduction)."""
        n = ctypes.c_uint64()
        self._check(lib.sqz_field_count(self._handle(), ctypes.byref(n)))
        return n.value

    def sum(self, method="neumaier"):
        """Sum of the domain cells: "neumaier" (compensated) or "pairwise"; exact for u8 and i32.
        NaN or infinity raises InputError (SQZ_ERR_NON_FINITE)."""
        if method not in _SUMS:
            raise invalid("sum method %r is not one of %s" % (method, ", ".join(_SUMS)))
        s = ctypes.c_double()
        self._check(lib.sqz_field_sum(self._handle(), _SUMS[method], ctypes.byref(s)))
        return s.value

    def _observables(self, items):
        """items parsed on the domain (InputError naming a bad one), their column names and total width."""
        if isinstance(items, str):
            items = [items]
        arr = (Observable * max(len(items), 1))()
        names, dims = [], self.domain.dims
        for i, text in enumerate(items):
            check(lib.sqz_observable_parse(self.domain._handle(), _cstr(text, "observable"), ctypes.byref(arr[i])),
                  self.context._h)
            width = lib.sqz_observable_width(ctypes.byref(arr[i]), dims)
            names += ["com_y", "com_x", "com_z"][:width] if arr[i].kind == _OBS_COM else [text]
        return arr, len(items), names

    def observe(self, items):
        """Observables of the current state, computed on the device over the domain cells (no copy of the
        field): items such as "sum", "nonzero", "min", "max", "com" (com_y, com_x[, com_z]), "m2@Y,X" (sum of
        u |p - c|^2 about a real point; 3D "m2@Z,Y,X"), "probe@Y,X". Returns a float64 array, one value per
        column (docs/OBSERVABLES.md)."""
        arr, n, names = self._observables(items)
        out = np.zeros(len(names), np.float64)
        self._check(lib.sqz_field_observe(self._handle(), arr, n, out.ctypes.data_as(ctypes.POINTER(ctypes.c_double))))
        return out

    def series(self, items, every, steps, workload="heat", **kwargs):
        """Runs steps of workload ("heat", "life" or "run", with its keyword arguments) and records items (as
        observe() takes them) at step 0, every `every` steps and after the last, through the library's
        observer of the step loop. Returns (steps: uint64 array, values: float64 array (rows, columns),
        columns: the column names)."""
        if workload not in ("heat", "life", "run"):
            raise invalid("series: workload %r is not heat, life or run" % (workload,))
        arr, n, names = self._observables(items)
        if _u64(every, "every") < 1:
            raise invalid("series: every is 0 (a row every K >= 1 steps)")
        rows, at = [self.observe(items)], [0]

        def observer(field_p, done, _user):
            out = np.zeros(len(names), np.float64)
            st = lib.sqz_field_observe(field_p, arr, n, out.ctypes.data_as(ctypes.POINTER(ctypes.c_double)))
            if st == 0:
                rows.append(out)
                at.append(done)
            return st

        cb = OBSERVER_FN(observer)  # kept alive until the observer is removed below
        self._check(lib.sqz_context_set_observer(self.context._h, _u64(every, "every"), cb, None))
        try:
            getattr(self, workload)(steps=steps, **kwargs)
        finally:
            lib.sqz_context_set_observer(self.context._h, 0, OBSERVER_FN(), None)
        return np.array(at, np.uint64), np.array(rows, np.float64), names

    def life(self, steps, rule=None):
        """steps generations of a Life-like rule on a u8 field; rule None is the default of the domain's
        dimension: "B3/S23" in 2D, "B6/S5,6,7" in 3D. Golly's Generations rules too ("B2/S/C3", "/2/3",
        "345/2/4": cells 0..C-1, only 1 counts as a neighbour)."""
        return self._step(lib.sqz_life_step, _cstr(rule, "rule"), _u64(steps, "steps"))

    def life_check(self, rule=None):
        """Refuses (InputError) a u8 state holding a cell other than 0 or 1 (or, for a Generations rule of C
        states, C or more), naming the first in the array's order; life() does not check. One count on the
        device."""
        self._check(lib.sqz_life_check_rule(self._handle(), None if rule is None else _cstr(rule, "rule")))
        return self

    def life_custom(self, cell_body, steps):
        """Life with an OpenCL C body over (uchar self, uint live) returning uchar (OpenCL only)."""
        if not cell_body:
            raise invalid("life_custom: the cell body is empty")
        return self._step(lib.sqz_life_step_custom, _cstr(cell_body, "cell_body"), _u64(steps, "steps"))

    def heat(self, steps, alpha=None):
        """Explicit insulated heat diffusion on an f32/f64 field; alpha None means 0.2 in 2D, 0.1 in 3D
        (stability limit: heat_alpha_max(dims), 1/4 in 2D and 1/6 in 3D)."""
        if alpha is None:
            alpha = 0.2 if self.domain.dims == 2 else 0.1
        return self._step(lib.sqz_heat_step, float(alpha), _u64(steps, "steps"))

    def run(self, source, steps, params=(), name="update.cl"):
        """steps steps of a user stencil: OpenCL C source defining

            sqz_cell_t sqz_update(sqz_cell_t self, const sqz_cell_t nb[SQZ_NB], uint present,
                                  __constant const sqz_param_t *param);

        (see docs/CONTRACTS.md, the cell update contract); params become param[0], param[1], ...; name labels the
        source's lines in the build log (a failed build raises SqzError SQZ_ERR_BUILD_FAILED with the
        log as detail). Needs an OpenCL context."""
        p, n = _params(params)
        return self._step(lib.sqz_stencil_step, _cstr(source, "source"), _cstr(name, "name"), p, n, _u64(steps, "steps"))

    def run_fn(self, fn, steps, params=()):
        """steps steps of a Python update on the cpu backend (sqz_stencil_step_fn): for testing and
        prototyping only, since every cell of every step calls back into Python (~10^5 cells/s).

        fn(self, nb, present, params) -> new value, with self a NumPy scalar of the field's dtype, nb a
        NumPy array of the 8 (2D) or 26 (3D) neighbours in the kernel contract's order (absent ones 0),
        present the bit mask of neighbours that are domain cells, and params a NumPy array of the
        parameters as sqz_param_t (float64 for f64 fields, float32 otherwise). An exception in fn stops
        calling it (the remaining cells keep their values) and is raised when the C call returns."""
        p, n = _params(params)
        dt, nnb = self.dtype, 8 if self.domain.dims == 2 else 26
        pv = np.array([float(v) for v in params], np.float64 if dt == np.float64 else np.float32)
        cell_t = np.ctypeslib.as_ctypes_type(dt)
        failed = []

        def update(self_p, nb_p, present, _param_p, out_p, _user):
            out = np.frombuffer((cell_t * 1).from_address(out_p), dt)
            cur = np.frombuffer((cell_t * 1).from_address(self_p), dt)[0]
            out[0] = cur
            if failed:
                return
            try:
                nb = np.frombuffer((cell_t * nnb).from_address(nb_p), dt).copy()
                out[0] = fn(cur, nb, present, pv)
            except BaseException as e:  # never let an exception unwind through C
                failed.append(e)

        cb = UPDATE_FN(update)  # kept alive by this frame until the C call returns
        with self.context._interrupt.armed():
            status = lib.sqz_stencil_step_fn(self._handle(), cb, None, p, n, _u64(steps, "steps"))
        if failed:
            raise failed[0]
        self._check(status)
        return self

    def save_npy(self, path):
        """Write the embedded state as a .npy file (atomically)."""
        self._check(lib.sqz_field_save_npy(self._handle(), _fspath(path)))
        return self

    def load_npy(self, path):
        """Read the state from a .npy file of the field's shape and dtype."""
        self._check(lib.sqz_field_load_npy(self._handle(), _fspath(path)))
        return self

    def save_pbm(self, path):
        """Write the state as a P4 PBM (1 = non-zero)."""
        self._check(lib.sqz_field_save_pbm(self._handle(), _fspath(path)))
        return self

    def load_pbm(self, path):
        """Read a P1/P4 PBM of the embedded size (u8 fields)."""
        self._check(lib.sqz_field_load_pbm(self._handle(), _fspath(path)))
        return self

    def save_png(self, path, size=None):
        """Write a PNG picture, downscaled so its longer side is at most size pixels when size is given
        (needs a libsqz built with libpng, else SqzError SQZ_ERR_UNSUPPORTED)."""
        self._check(lib.sqz_field_save_png_sized(self._handle(), _fspath(path), 0 if size is None else _u64(size, "size")))
        return self

    def read_compact(self):
        """The state in compact order (sqz_field_read_compact): a new 1-D NumPy array of
        ``domain.cells`` values, the same order whatever the layout, no bounding-box array."""
        a = np.zeros(self.domain.cells, self.dtype)
        self._check(lib.sqz_field_read_compact(self._handle(), a.ctypes.data, a.size))
        return a

    def write_compact(self, values):
        """Set the state from ``domain.cells`` values in compact order (same dtype, no casting)."""
        a = np.ascontiguousarray(values)
        if a.dtype != self.dtype or a.ndim != 1:
            raise invalid("write_compact: need a 1-D array of dtype %s, got %s of shape %s"
                          % (self.dtype, a.dtype, a.shape))
        self._check(lib.sqz_field_write_compact(self._handle(), a.ctypes.data, a.size))
        return self

    def save_h5(self, path, workload=None, step=0):
        """Write an HDF5 checkpoint: the compact state (chunked, deflated, Fletcher-32) and the
        attributes domain, cell_type, workload (free text: the rule or kernel), step, sqz_version,
        order. Needs libsqz-hdf5 built with libhdf5 (pip installs it beside libsqz; loaded at the first
        checkpoint), else SqzError SQZ_ERR_UNSUPPORTED."""
        self._check(_h5().sqz_field_save_h5(self._handle(), _fspath(path), _cstr(workload, "workload"),
                                            _u64(step, "step")))
        return self

    def load_h5(self, path):
        """Read an HDF5 checkpoint of this domain and dtype; returns (workload, step) from the file."""
        buf, step = ctypes.create_string_buffer(4096), ctypes.c_uint64()
        self._check(_h5().sqz_field_load_h5(self._handle(), _fspath(path), buf, len(buf), ctypes.byref(step)))
        return buf.value.decode(), step.value

    def save_rle(self, path, rule=None):
        """Write the live cells' bounding box as a Golly RLE file (2D u8 fields); rule in any form
        rule_parse takes (None: B3/S23), written as B3/S23."""
        self._check(lib.sqz_field_save_rle(self._handle(), _fspath(path), None if rule is None else _cstr(rule, "rule")))
        return self

    def load_rle(self, path, at=(0, 0)):
        """Read a Golly RLE pattern with its top-left at ``at`` = (x, y) (plus the file's #CXRLE Pos);
        every other cell becomes 0. A live cell on a hole or outside raises InputError."""
        x, y = at
        self._check(lib.sqz_field_load_rle(self._handle(), _fspath(path), _i64(x, "at x"), _i64(y, "at y")))
        return self

    def save_cells(self, path, name=None):
        """Write the live cells' bounding box as a Golly plaintext (.cells) file (2D u8 fields), with a
        "!Name:" line when name is given and sqz's "!Pos: X,Y" comment."""
        self._check(lib.sqz_field_save_cells(self._handle(), _fspath(path), _cstr(name, "name")))
        return self

    def load_cells(self, path, at=(0, 0)):
        """Read a Golly plaintext (.cells) pattern like load_rle (offset: the file's "!Pos:" plus at)."""
        x, y = at
        self._check(lib.sqz_field_load_cells(self._handle(), _fspath(path), _i64(x, "at x"), _i64(y, "at y")))
        return self

    def load_clipped(self, path, at=(0, 0)):
        """The CLI's --clip: load a .rle or .cells pattern (placed as above), an .npy or a PBM file,
        dropping the live cells that land outside the domain or on its holes; returns how many were
        dropped. InputError when every live cell would be dropped."""
        x, y, n = at[0], at[1], ctypes.c_uint64()
        self._check(lib.sqz_field_load_clipped(self._handle(), _fspath(path), _i64(x, "at x"), _i64(y, "at y"),
                                               ctypes.byref(n)))
        return n.value

    def __repr__(self):
        if self._closing:
            return "<sqz.Field closed>"
        return "<sqz.Field %s %s layout=%s>" % (self.domain.spec, self.type_name, self.layout)


def _h5():
    """libsqz-hdf5, or SqzError SQZ_ERR_UNSUPPORTED saying where it was looked for."""
    h5, why = _load_hdf5()
    if h5 is None:
        raise error(SQZ_ERR_UNSUPPORTED, why)
    return h5


def devices():
    """Every device of every backend, as dicts with keys backend, id, platform, name, type, c_version,
    driver (str) and compute_units, global_mem, max_alloc, max_work_group (int)."""
    out = DeviceListP()
    check(lib.sqz_device_list_create(ctypes.byref(out)))
    try:
        rows = []
        for i in range(lib.sqz_device_list_count(out)):
            row = {}
            for k, key in enumerate(("backend", "id", "platform", "name", "type", "c_version", "driver")):
                s = lib.sqz_device_list_str(out, i, k)
                row[key] = s.decode(errors="replace") if s else ""
            for k, key in enumerate(("compute_units", "global_mem", "max_alloc", "max_work_group")):
                row[key] = lib.sqz_device_list_u64(out, i, k)
            rows.append(row)
        return rows
    finally:
        lib.sqz_device_list_release(out)


def edm(ctx, points, map=None):
    """Euclidean distance matrix of points (an (n, 2) array, converted to float32) on ctx: the
    n(n+1)/2 lower-triangle entries (row y = 0..n-1, x = 0..y) as a 1D float32 array. map: a 2D
    simplex thread map ("bb", "ltm", "rb", "had", "rec", ...) or None for the default."""
    xy = np.ascontiguousarray(points, dtype=np.float32)
    if xy.ndim != 2 or xy.shape[1] != 2:
        raise invalid("edm: points must have shape (n, 2), got %s" % (xy.shape,))
    n = xy.shape[0]
    out = np.empty(n * (n + 1) // 2, np.float32)
    fp = ctypes.POINTER(ctypes.c_float)
    ctx._check(lib.sqz_edm(ctx._handle(), xy.ctypes.data_as(fp), n, _cstr(map, "map"), out.ctypes.data_as(fp)))
    return out


def rule_parse(rule, dims=2):
    """(birth_mask, survive_mask) of a Life rule: bit c set when count c gives birth / survives."""
    b, s = ctypes.c_uint32(), ctypes.c_uint32()
    err = ctypes.create_string_buffer(256)
    status = lib.sqz_rule_parse(_cstr(rule, "rule"), int(dims), ctypes.byref(b), ctypes.byref(s), err, len(err))
    if status != 0:
        raise error(status, err.value.decode(errors="replace"))
    return b.value, s.value


def rule_parse_states(rule, dims=2):
    """(birth_mask, survive_mask, states) of a Life rule or of Golly's Generations rules ("B2/S/C3", "/2/3"):
    states is 2 for two-state rules."""
    b, s, c = ctypes.c_uint32(), ctypes.c_uint32(), ctypes.c_uint32()
    err = ctypes.create_string_buffer(256)
    status = lib.sqz_rule_parse_states(_cstr(rule, "rule"), int(dims), ctypes.byref(b), ctypes.byref(s),
                                       ctypes.byref(c), err, len(err))
    if status != 0:
        raise error(status, err.value.decode(errors="replace"))
    return b.value, s.value, c.value


def heat_alpha_max(dims):
    """Stability limit of heat's alpha: 1/4 in 2D, 1/6 in 3D."""
    return lib.sqz_heat_alpha_max(int(dims))


def version():
    """Version string of the loaded libsqz, e.g. "0.1.0"."""
    return lib.sqz_version_string().decode()
