"""errors.py — SqzError and InputError: every non-zero sqz status, with its name and the library's detail."""
from ._lib import lib

SQZ_ERR_INVALID_ARGUMENT = -2001
SQZ_ERR_PARSE = -2002
SQZ_ERR_UNSUPPORTED = -2005
SQZ_ERR_NON_FINITE = -2010
SQZ_ERR_OUTSIDE_DOMAIN = -2011
INPUT_STATUSES = frozenset((SQZ_ERR_INVALID_ARGUMENT, SQZ_ERR_PARSE, SQZ_ERR_NON_FINITE, SQZ_ERR_OUTSIDE_DOMAIN))


class SqzError(RuntimeError):
    """A call into libsqz returned a non-zero status.

    Attributes: ``status`` (the int status: sqz's own codes are -2001..-2012, OpenCL's pass through),
    ``name`` (``sqz_status_name``, e.g. "SQZ_ERR_PARSE"), ``detail`` (``sqz_last_error``: the bad value,
    the build log, the byte counts; may be empty) and ``message`` (``sqz_status_message``)."""

    def __init__(self, status, detail=""):
        self.status = int(status)
        self.name = lib.sqz_status_name(self.status).decode()
        self.message = lib.sqz_status_message(self.status).decode()
        self.detail = detail
        super().__init__("%s: %s" % (self.name, detail or self.message))


class InputError(SqzError, ValueError):
    """Bad input: SQZ_ERR_INVALID_ARGUMENT, SQZ_ERR_PARSE, SQZ_ERR_OUTSIDE_DOMAIN or SQZ_ERR_NON_FINITE."""


def error(status, detail=""):
    """The exception for status: InputError for bad-input statuses, SqzError otherwise."""
    return (InputError if status in INPUT_STATUSES else SqzError)(status, detail)


def check(status, ctx_handle=None):
    """Raise for a non-zero status, with the detail of ctx_handle (None: this thread's context-free detail)."""
    if status != 0:
        raw = lib.sqz_last_error(ctx_handle)
        raise error(status, raw.decode(errors="replace") if raw else "")


def invalid(detail):
    """An InputError with status SQZ_ERR_INVALID_ARGUMENT for input refused on the Python side."""
    return error(SQZ_ERR_INVALID_ARGUMENT, detail)
