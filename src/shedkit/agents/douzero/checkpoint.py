"""Reading PyTorch checkpoints (``torch.save`` of a state dict) without PyTorch, safely.

A checkpoint is a pickle, and unpickling can call any function a file names:
a checkpoint from a stranger could run a program. This reader unpickles with
`pickle.Unpickler` restricted to the few names a state dict of tensors needs
(an ordered dict, the tensor and parameter rebuilders, the storage types) and
refuses any other with `WeightsError`, before anything is called. Tensors come
back as numpy arrays.

Both of PyTorch's formats are read:

- the zip format (the default since PyTorch 1.6, which DouZero requires):
  ``NAME/data.pkl`` and one file ``NAME/data/KEY`` per storage;
- the legacy format (``_use_new_zipfile_serialization=False``): a magic number,
  a protocol number and system information, each a pickle, then the state dict's
  pickle, the list of storage keys, and each storage's raw bytes.

The tar format of PyTorch before 0.4 is not read (`WeightsError` says so).
"""

from __future__ import annotations

import collections
import io
import math
import pickle
import re
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Final

from shedkit.core.errors import OptionError
from shedkit.core.extras import require_extra

try:
    import numpy as np
    from numpy.typing import NDArray
except ImportError:
    require_extra("rl", "the douzero agent (shedkit.agents.douzero)", "numpy")
    raise

__all__ = ["WeightsError", "read_checkpoint"]

#: The first pickle of a legacy-format file.
LEGACY_MAGIC: Final = 0x1950A86A20F9469CFC6C
# Larger than any Dou Di Zhu network by far; a bigger entry is not a DouZero checkpoint.
_MAX_BYTES: Final = 1 << 30
_MAX_ELEMENTS: Final = 1 << 28
_KEY: Final = re.compile(r"[A-Za-z0-9_.]{1,64}")


class WeightsError(OptionError):
    """Weights that cannot be read, are not DouZero's networks, or are refused as unsafe."""


class _Sealed:
    """An object a pickle can reach: no attribute of it can be set once it is made.

    Its attributes are slots (no ``__dict__``) and it has no ``__setstate__``, so a
    hostile file's BUILD opcode fails on it instead of changing it for the loads
    after it (a frozen dataclass would not do: its generated ``__setstate__`` sets
    any field).
    """

    __slots__ = ()

    def __init__(self, **values: Any) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise WeightsError("a checkpoint may not change the objects of the reader")


class _StorageType(_Sealed):
    """A storage class a checkpoint names (``torch.FloatStorage``): its element type."""

    __slots__ = ("dtype", "name")
    name: str
    dtype: np.dtype[Any]


_STORAGE_TYPES: Final = {
    name: _StorageType(name=name, dtype=np.dtype(code))
    for name, code in (
        ("FloatStorage", "<f4"),
        ("DoubleStorage", "<f8"),
        ("HalfStorage", "<f2"),
        ("LongStorage", "<i8"),
        ("IntStorage", "<i4"),
        ("ShortStorage", "<i2"),
        ("CharStorage", "i1"),
        ("ByteStorage", "u1"),
        ("BoolStorage", "?"),
    )
}


class _Storage(_Sealed):
    """A storage's elements, filled when the file's data is read (legacy: after the pickle)."""

    __slots__ = ("data", "kind", "numel")
    kind: _StorageType
    numel: int
    data: NDArray[Any] | None

    def fill(self, raw: bytes, big_endian: bool) -> None:
        """Read ``numel`` elements from ``raw`` (little- or big-endian) as native numbers."""
        dtype = self.kind.dtype.newbyteorder(">" if big_endian else "<")
        data = np.frombuffer(raw, dtype=dtype, count=self.numel)
        object.__setattr__(self, "data", data.astype(self.kind.dtype.newbyteorder("=")))


class _Tensor(_Sealed):
    """A tensor named in the pickle, made an array once its storage's data is read."""

    __slots__ = ("offset", "size", "storage", "stride")
    storage: _Storage
    offset: int
    size: tuple[int, ...]
    stride: tuple[int, ...]

    def array(self) -> NDArray[Any]:
        """The tensor's elements as a new array of its shape."""
        data = self.storage.data
        if data is None:
            raise WeightsError("a tensor's storage has no data in the file")
        n = math.prod(self.size)
        if n == 0:
            return np.zeros(self.size, dtype=data.dtype)
        last = self.offset + sum((s - 1) * st for s, st in zip(self.size, self.stride, strict=True))
        if self.offset >= data.size or last >= data.size:
            raise WeightsError("a tensor reaches past the end of its storage")
        view = np.lib.stride_tricks.as_strided(
            data[self.offset :],
            shape=self.size,
            strides=tuple(st * data.itemsize for st in self.stride),
            writeable=False,
        )
        return np.array(view)


def _ints(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, tuple | list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value
    ):
        raise WeightsError(f"a tensor's {what} is not a tuple of whole numbers: {value!r}")
    return tuple(value)


def _rebuild_tensor(storage: object, offset: object, size: object, stride: object, *_: Any) -> Any:
    """Stands for ``torch._utils._rebuild_tensor_v2`` (and the older ``_rebuild_tensor``)."""
    if not isinstance(storage, _Storage):
        raise WeightsError("a tensor is built from something that is not a storage")
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise WeightsError(f"a tensor's storage offset is not a whole number: {offset!r}")
    shape, strides = _ints(size, "size"), _ints(stride, "stride")
    if len(shape) != len(strides):
        raise WeightsError("a tensor's size and stride differ in length")
    if math.prod(shape) > _MAX_ELEMENTS:
        raise WeightsError(f"a tensor of {math.prod(shape)} elements is too large")
    return _Tensor(storage=storage, offset=offset, size=shape, stride=strides)


def _rebuild_parameter(data: object, *_: Any) -> Any:
    """Stands for ``torch._utils._rebuild_parameter``: a parameter is its tensor."""
    if not isinstance(data, _Tensor):
        raise WeightsError("a parameter holds something that is not a tensor")
    return data


class _Call(_Sealed):
    """A function as a pickle reaches it: callable, with no attribute it could set."""

    __slots__ = ("fn",)
    fn: Callable[..., Any]

    def __call__(self, *args: Any) -> Any:
        return self.fn(*args)


#: Every global a state dict of tensors names; a checkpoint naming any other is refused.
_ALLOWED: Final[dict[tuple[str, str], Any]] = {
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("torch._utils", "_rebuild_tensor_v2"): _Call(fn=_rebuild_tensor),
    ("torch._utils", "_rebuild_tensor"): _Call(fn=_rebuild_tensor),
    ("torch._utils", "_rebuild_parameter"): _Call(fn=_rebuild_parameter),
    **{("torch", name): kind for name, kind in _STORAGE_TYPES.items()},
}


class _Unpickler(pickle.Unpickler):
    """An unpickler that finds only the `_ALLOWED` globals and reads storages by id."""

    def __init__(
        self, file: IO[bytes], where: str, storage: Callable[[tuple[Any, ...]], _Storage] | None
    ) -> None:
        super().__init__(file)
        self.where = where
        self.storage = storage

    def find_class(self, module: str, name: str) -> Any:
        """The allowed global ``module.name``; `WeightsError` for any other."""
        found = _ALLOWED.get((module, name))
        if found is None:
            raise WeightsError(
                f"{self.where}: refused: it names {module}.{name}, which a state dict of "
                "tensors never needs (unpickling could run code); nothing of it was run"
            )
        return found

    def persistent_load(self, pid: Any) -> Any:
        """The storage a persistent id names (zip: read now; legacy: filled later)."""
        if self.storage is None:
            raise WeightsError(f"{self.where}: a storage where none may be")
        if not isinstance(pid, tuple) or not pid or pid[0] != "storage":
            raise WeightsError(f"{self.where}: an unknown persistent id {pid!r:.80}")
        return self.storage(pid)


def _unpickle(
    data: IO[bytes], where: str, storage: Callable[[tuple[Any, ...]], _Storage] | None = None
) -> Any:
    """One pickle from ``data`` through the restricted unpickler; errors as `WeightsError`."""
    try:
        return _Unpickler(data, where, storage).load()
    except WeightsError:
        raise
    except Exception as err:  # a damaged or hostile pickle fails in many ways; none is run
        raise WeightsError(
            f"{where}: not a readable checkpoint ({type(err).__name__}: {err})"
        ) from err


def _storage_id(pid: tuple[Any, ...], where: str) -> tuple[_StorageType, str, int]:
    """The element type, key and element count of a persistent id ``('storage', …)``."""
    if len(pid) < 5:
        raise WeightsError(f"{where}: a storage id too short: {pid!r:.80}")
    kind, key, numel = pid[1], pid[2], pid[4]
    if not isinstance(kind, _StorageType):
        raise WeightsError(f"{where}: a storage of an unknown type {kind!r:.40}")
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise WeightsError(f"{where}: a storage key that is not a plain name: {key!r:.40}")
    if not isinstance(numel, int) or isinstance(numel, bool) or not 0 <= numel <= _MAX_ELEMENTS:
        raise WeightsError(f"{where}: a storage size that is not a whole number: {numel!r:.40}")
    return kind, key, numel


def _arrays(obj: Any, where: str) -> Any:
    """`_materialize`, with what a damaged file makes fail there as `WeightsError`."""
    try:
        return _materialize(obj)
    except WeightsError:
        raise
    except Exception as err:
        raise WeightsError(f"{where}: a damaged tensor ({type(err).__name__}: {err})") from err


def _materialize(obj: Any) -> Any:
    """``obj`` with every tensor made a numpy array (dicts, lists and tuples walked)."""
    if isinstance(obj, _Tensor):
        return obj.array()
    if isinstance(obj, dict):
        out = collections.OrderedDict()
        for k, v in obj.items():
            out[k] = _materialize(v)
        return out
    if isinstance(obj, list | tuple):
        return type(obj)(_materialize(v) for v in obj)
    return obj


def _read_zip(path: Path, archive: zipfile.ZipFile) -> Any:
    where = str(path)
    names = {info.filename: info for info in archive.infolist()}
    pickles = [n for n in names if n.count("/") == 1 and n.endswith("/data.pkl")]
    if len(pickles) != 1:
        raise WeightsError(f"{where}: a zip file, but not PyTorch's (no single NAME/data.pkl)")
    prefix = pickles[0][: -len("data.pkl")]
    for info in names.values():
        if info.file_size > _MAX_BYTES:
            raise WeightsError(f"{where}: {info.filename} is too large ({info.file_size} bytes)")
    order = archive.read(prefix + "byteorder").decode() if prefix + "byteorder" in names else ""
    big = order.strip() == "big"
    storages: dict[str, _Storage] = {}

    def storage(pid: tuple[Any, ...]) -> _Storage:
        kind, key, numel = _storage_id(pid, where)
        found = storages.get(key)
        if found is not None:
            return found
        name = f"{prefix}data/{key}"
        if name not in names:
            raise WeightsError(f"{where}: storage {key} has no data file")
        raw = archive.read(name)
        if len(raw) < numel * kind.dtype.itemsize:
            raise WeightsError(f"{where}: storage {key} holds fewer bytes than it says")
        made = storages[key] = _Storage(kind=kind, numel=numel, data=None)
        made.fill(raw, big)
        return made

    with archive.open(pickles[0]) as data:
        return _arrays(_unpickle(io.BytesIO(data.read()), where, storage), where)


def _read_legacy(path: Path, f: IO[bytes]) -> Any:
    where = str(path)
    if _unpickle(f, where) != LEGACY_MAGIC:
        raise WeightsError(f"{where}: not a PyTorch checkpoint (no magic number)")
    _unpickle(f, where)  # the protocol version: 1001 since PyTorch 0.4
    info = _unpickle(f, where)
    little = not isinstance(info, dict) or info.get("little_endian", True) is not False
    storages: dict[str, _Storage] = {}

    def storage(pid: tuple[Any, ...]) -> _Storage:
        kind, key, numel = _storage_id(pid, where)
        if len(pid) > 5 and pid[5] is not None:
            raise WeightsError(f"{where}: storage views (PyTorch before 1.0) are not read")
        found = storages.get(key)
        if found is None:
            found = storages[key] = _Storage(kind=kind, numel=numel, data=None)
        return found

    result = _unpickle(f, where, storage)
    keys = _unpickle(f, where)
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise WeightsError(f"{where}: the list of storages is damaged")
    for key in keys:
        found = storages.get(key)
        if found is None:
            raise WeightsError(f"{where}: data for storage {key}, which no tensor uses")
        head = f.read(8)
        if len(head) != 8:
            raise WeightsError(f"{where}: the file ends before storage {key}")
        (count,) = struct.unpack("<q" if little else ">q", head)
        if count != found.numel:
            raise WeightsError(f"{where}: storage {key} holds {count} elements, not {found.numel}")
        raw = f.read(count * found.kind.dtype.itemsize)
        if len(raw) != count * found.kind.dtype.itemsize:
            raise WeightsError(f"{where}: the file ends inside storage {key}")
        found.fill(raw, not little)
    return _arrays(result, where)


def read_checkpoint(path: str | Path) -> dict[str, NDArray[Any]]:
    """The state dict a ``torch.save`` file holds, as numpy arrays by name.

    Raises `WeightsError` for a file that is not a checkpoint of tensors, or
    that names anything else (it is refused unrun).
    """
    path = Path(path)
    where = str(path)
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                result = _read_zip(path, archive)
        else:
            with open(path, "rb") as f:
                head = f.read(512)
                f.seek(0)
                if len(head) >= 262 and head[257:262] == b"ustar":
                    raise WeightsError(
                        f"{where}: a tar-format checkpoint (PyTorch before 0.4) is not read; "
                        "load it with PyTorch and save it again"
                    )
                if not head.startswith(b"\x80"):
                    raise WeightsError(f"{where}: not a PyTorch checkpoint")
                result = _read_legacy(path, f)
    except OSError as err:
        raise WeightsError(f"{where}: cannot read it ({err.strerror or err})") from err
    except zipfile.BadZipFile as err:
        raise WeightsError(f"{where}: a damaged zip file ({err})") from err
    if not isinstance(result, dict) or not all(isinstance(k, str) for k in result):
        raise WeightsError(f"{where}: holds no state dict (a dict of tensors by name)")
    arrays = {k: v for k, v in result.items() if isinstance(v, np.ndarray)}
    if len(arrays) != len(result):
        odd = next(k for k in result if k not in arrays)
        raise WeightsError(f"{where}: {odd!r} is not a tensor")
    return arrays
