"""PyTorch checkpoint files written without PyTorch, opcode by opcode, for the tests.

``torch.save`` of a state dict pickles an ``OrderedDict`` of tensors, each rebuilt
by ``torch._utils._rebuild_tensor_v2`` from a storage named by a persistent id.
These writers emit the same pickle (protocol 2) in both of PyTorch's formats, so
that the reader is tested on a machine without PyTorch; the optional torch test
checks that PyTorch itself reads them and that the reader reads PyTorch's own.
"""

from __future__ import annotations

import math
import pickle
import struct
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
PROTO2, MARK, TUPLE, EMPTY_TUPLE, REDUCE = b"\x80\x02", b"(", b"t", b")", b"R"
BINPERSID, NEWFALSE, NONE, SETITEMS, STOP = b"Q", b"\x89", b"N", b"u", b"."


def unicode(text: str) -> bytes:
    data = text.encode()
    return b"X" + struct.pack("<I", len(data)) + data


def integer(n: int) -> bytes:
    return b"J" + struct.pack("<i", n)


def global_(module: str, name: str) -> bytes:
    return b"c" + f"{module}\n{name}\n".encode()


def tuple_(*items: bytes) -> bytes:
    return MARK + b"".join(items) + TUPLE


def ordered_dict() -> bytes:
    return global_("collections", "OrderedDict") + EMPTY_TUPLE + REDUCE


def state_dict_pickle(params: Mapping[str, NDArray[np.float32]], legacy: bool) -> bytes:
    """The pickle ``torch.save`` writes for ``params`` (storage ``i`` for the i-th tensor)."""
    out = PROTO2 + ordered_dict() + MARK
    for key, (name, array) in enumerate(params.items()):
        size = array.shape
        stride = tuple(math.prod(size[i + 1 :]) for i in range(len(size)))
        pid = [unicode("storage"), global_("torch", "FloatStorage"), unicode(str(key))]
        pid += [unicode("cpu"), integer(array.size)] + ([NONE] if legacy else [])
        out += unicode(name) + global_("torch._utils", "_rebuild_tensor_v2")
        out += tuple_(
            tuple_(*pid) + BINPERSID,
            integer(0),
            tuple_(*(integer(s) for s in size)),
            tuple_(*(integer(s) for s in stride)),
            NEWFALSE,
            ordered_dict(),
        )
        out += REDUCE
    return out + SETITEMS + STOP


def raw(array: NDArray[np.float32]) -> bytes:
    return np.ascontiguousarray(array, dtype="<f4").tobytes()


def write_zip(
    path: Path, params: Mapping[str, NDArray[np.float32]], data_pkl: bytes | None = None
) -> None:
    """A zip-format checkpoint (PyTorch 1.6 and later), or one with another ``data.pkl``."""
    pkl = state_dict_pickle(params, legacy=False) if data_pkl is None else data_pkl
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", pkl)
        z.writestr("archive/byteorder", "little")
        for key, array in enumerate(params.values()):
            z.writestr(f"archive/data/{key}", raw(array))
        z.writestr("archive/version", "3\n")


def write_legacy(
    path: Path, params: Mapping[str, NDArray[np.float32]], main_pkl: bytes | None = None
) -> None:
    """A legacy-format checkpoint (``_use_new_zipfile_serialization=False``)."""
    info = {"protocol_version": 1001, "little_endian": True, "type_sizes": {"int": 4}}
    parts = [pickle.dumps(LEGACY_MAGIC, 2), pickle.dumps(1001, 2), pickle.dumps(info, 2)]
    parts.append(state_dict_pickle(params, legacy=True) if main_pkl is None else main_pkl)
    parts.append(pickle.dumps([str(k) for k in range(len(params))], 2))
    for array in params.values():
        parts.append(struct.pack("<q", array.size) + raw(array))
    path.write_bytes(b"".join(parts))
