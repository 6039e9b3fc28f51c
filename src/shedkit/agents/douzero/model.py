"""DouZero's networks in numpy, and their weights files.

Each position has one network (DouZero's ``LandlordLstmModel`` and
``FarmerLstmModel``): an LSTM of 128 units reads the 5 rows of ``z`` (162 values
each, PyTorch's gate order input, forget, cell, output); its last output and a
row of ``x`` (373 values for the landlord, 484 for a peasant) go through five
dense layers of 512 with ReLU and one of 1, the value of that row's action. The
agent plays the action of highest value (the first, on a tie), as DouZero's
``DeepAgent`` does.

Weights come as PyTorch checkpoints (``.ckpt``, read without PyTorch by
`shedkit.agents.douzero.checkpoint`) or as shedkit's ``.npz`` (`save_npz`), with
PyTorch's parameter names (``lstm.weight_ih_l0`` … ``dense6.bias``). A weights
folder holds ``landlord``, ``landlord_up`` and ``landlord_down``, each ``.npz`` or
``.ckpt`` (the ``.npz`` when both are there: reading it unpickles nothing).

>>> net = DouZeroNet(random_params("landlord", seed=1))
>>> net.values(np.zeros((5, 162), np.float32), np.zeros((3, 373), np.float32)).shape
(3,)
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, TypeAlias

from shedkit.agents.douzero.checkpoint import WeightsError, read_checkpoint
from shedkit.agents.douzero.encoding import POSITIONS, X_SIZE
from shedkit.core.extras import require_extra

try:
    import numpy as np
    from numpy.typing import NDArray
except ImportError:
    require_extra("rl", "the douzero agent (shedkit.agents.douzero)", "numpy")
    raise

__all__ = [
    "HIDDEN",
    "WIDTH",
    "DouZeroNet",
    "WeightsError",
    "bidding_file",
    "cached_net",
    "dense_shapes",
    "load_net",
    "load_weights",
    "param_shapes",
    "random_params",
    "save_npz",
    "weights_files",
]

#: Units of the LSTM, and of each hidden dense layer.
HIDDEN: Final = 128
WIDTH: Final = 512
_Z_WIDTH: Final = 162
_DENSE: Final = 6

# Explicit, so that a build without numpy (mypyc's) reads it as Any rather than an error.
Array: TypeAlias = "NDArray[np.float32]"


def param_shapes(position: str) -> dict[str, tuple[int, ...]]:
    """Every parameter of ``position``'s network, by PyTorch's name, with its shape."""
    if position not in X_SIZE:
        raise ValueError(f"unknown position {position!r}; the positions are {', '.join(POSITIONS)}")
    shapes: dict[str, tuple[int, ...]] = {
        "lstm.weight_ih_l0": (4 * HIDDEN, _Z_WIDTH),
        "lstm.weight_hh_l0": (4 * HIDDEN, HIDDEN),
        "lstm.bias_ih_l0": (4 * HIDDEN,),
        "lstm.bias_hh_l0": (4 * HIDDEN,),
    }
    shapes.update(dense_shapes(X_SIZE[position] + HIDDEN, WIDTH, _DENSE))
    return shapes


def dense_shapes(fan_in: int, width: int, layers: int) -> dict[str, tuple[int, ...]]:
    """``dense1`` … ``denseN``: ``layers`` linear layers of ``width`` units, the last of 1."""
    shapes: dict[str, tuple[int, ...]] = {}
    for i in range(1, layers + 1):
        out = 1 if i == layers else width
        shapes[f"dense{i}.weight"] = (out, fan_in)
        shapes[f"dense{i}.bias"] = (out,)
        fan_in = out
    return shapes


def _sigmoid(x: Array) -> Array:
    # The tanh form never overflows, unlike 1 / (1 + exp(-x)) for large negative x.
    out: Array = 0.5 * (np.tanh(0.5 * x) + 1.0)
    return out


class DouZeroNet:
    """One position's network (the position read from its first layer's width)."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        first = params.get("dense1.weight")
        width = None if first is None else np.shape(first)[-1] - HIDDEN
        positions = [p for p in POSITIONS if X_SIZE[p] == width]
        if not positions:
            raise WeightsError(
                "not a DouZero network: dense1.weight must be 512 × 501 (landlord) "
                f"or 512 × 612 (peasants), not {None if first is None else np.shape(first)}"
            )
        shapes = param_shapes(positions[0])
        missing = [k for k in shapes if k not in params]
        if missing:
            raise WeightsError(f"not a DouZero network: no {', '.join(missing)}")
        arrays: dict[str, Array] = {}
        for name, shape in shapes.items():
            arrays[name] = np.ascontiguousarray(params[name], dtype=np.float32)
            if arrays[name].shape != shape:
                raise WeightsError(
                    f"not a DouZero network: {name} is {arrays[name].shape}, not {shape}"
                )
            arrays[name].flags.writeable = False
        self.params = arrays
        self.x_size = X_SIZE[positions[0]]
        self._w_ih = arrays["lstm.weight_ih_l0"].T.copy()
        self._w_hh = arrays["lstm.weight_hh_l0"].T.copy()
        self._b_lstm = arrays["lstm.bias_ih_l0"] + arrays["lstm.bias_hh_l0"]
        w1 = arrays["dense1.weight"]
        # dense1 reads [lstm output, x]: split it so that the LSTM's share, the same for
        # every action of a position, is computed once.
        self._w1_h = w1[:, :HIDDEN].T.copy()
        self._w1_x = w1[:, HIDDEN:].T.copy()
        self._dense = [
            (arrays[f"dense{i}.weight"].T.copy(), arrays[f"dense{i}.bias"])
            for i in range(2, _DENSE + 1)
        ]

    def lstm(self, z: NDArray[Any]) -> Array:
        """The LSTM's output after the last row of each ``z`` (``5 × 162`` or ``n × 5 × 162``)."""
        seq = np.asarray(z, dtype=np.float32)
        if seq.ndim == 2:
            seq = seq[np.newaxis]
        n, steps, _ = seq.shape
        gates_x = seq @ self._w_ih + self._b_lstm
        h = np.zeros((n, HIDDEN), dtype=np.float32)
        c = np.zeros((n, HIDDEN), dtype=np.float32)
        for t in range(steps):
            gates = gates_x[:, t] + h @ self._w_hh
            i = _sigmoid(gates[:, :HIDDEN])
            f = _sigmoid(gates[:, HIDDEN : 2 * HIDDEN])
            g = np.tanh(gates[:, 2 * HIDDEN : 3 * HIDDEN])
            o = _sigmoid(gates[:, 3 * HIDDEN :])
            c = f * c + i * g
            h = o * np.tanh(c)
        return h

    def values(self, z: NDArray[Any], x: NDArray[Any]) -> Array:
        """The value of each row of ``x`` (``n × x_size``) after the history ``z``.

        ``z`` is one history (``5 × 162``), shared by every row, or one per row
        (``n × 5 × 162``, DouZero's ``z_batch``).
        """
        rows = np.asarray(x, dtype=np.float32)
        if rows.ndim != 2 or rows.shape[1] != self.x_size:
            raise ValueError(f"x must be n × {self.x_size}, not {rows.shape}")
        h = self.lstm(z)
        if h.shape[0] not in (1, rows.shape[0]):
            raise ValueError(f"{h.shape[0]} histories for {rows.shape[0]} rows")
        y = rows @ self._w1_x + (h @ self._w1_h + self.params["dense1.bias"])
        for w, b in self._dense:
            np.maximum(y, 0.0, out=y)
            y = y @ w + b
        out: Array = y[:, 0]
        return out

    def best(self, z: NDArray[Any], x: NDArray[Any]) -> int:
        """The index of the row of highest value (the first of equal ones)."""
        return int(np.argmax(self.values(z, x)))


def random_params(position: str, seed: int = 0) -> dict[str, Array]:
    """Parameters drawn as PyTorch initialises these layers (uniform ±1/√fan-in), seeded."""
    rng = np.random.default_rng(seed)
    shapes = param_shapes(position)
    out: dict[str, Array] = {}
    for name, shape in shapes.items():
        layer = name.rsplit(".", 1)[0]
        fan_in = HIDDEN if layer == "lstm" else shapes[f"{layer}.weight"][1]
        bound = 1.0 / np.sqrt(fan_in)
        out[name] = rng.uniform(-bound, bound, size=shape).astype(np.float32)
    return out


def save_npz(
    params: Mapping[str, NDArray[Any]], path: str | os.PathLike[str], *, half: bool = False
) -> None:
    """Write ``params`` (name → array) as a ``.npz`` weights file (nothing pickled).

    float32, or float16 with ``half`` (half the size; the networks compute in float32
    on the rounded weights, so a model is measured as it is shipped).
    """
    dtype = np.float16 if half else np.float32
    arrays: dict[str, Any] = {k: np.asarray(v, dtype=dtype) for k, v in params.items()}
    if half:
        peak = max((float(np.max(np.abs(v))) for v in params.values()), default=0.0)
        if peak > float(np.finfo(np.float16).max):
            raise WeightsError(f"a weight of {peak:g} does not fit float16")
    np.savez(Path(path), **arrays)


def load_weights(path: str | os.PathLike[str]) -> dict[str, NDArray[Any]]:
    """The parameters in a weights file: ``.npz`` (shedkit's), else a PyTorch checkpoint."""
    path = Path(path)
    if path.suffix != ".npz":
        return read_checkpoint(path)
    try:
        # allow_pickle=False: an .npz of object arrays would unpickle them.
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    except (OSError, ValueError) as err:
        raise WeightsError(f"{path}: not a readable .npz weights file ({err})") from err


def load_net(path: str | os.PathLike[str], position: str | None = None) -> DouZeroNet:
    """The network in a weights file; `WeightsError` if it is not ``position``'s (if given)."""
    net = DouZeroNet(load_weights(path))
    if position is not None and X_SIZE.get(position) != net.x_size:
        raise WeightsError(f"{path}: not a {position} network (x has {net.x_size} values)")
    return net


def weights_files(directory: str | os.PathLike[str]) -> dict[str, Path]:
    """Each position's weights file in ``directory`` (``POSITION.npz`` or ``POSITION.ckpt``)."""
    folder = Path(directory).expanduser()
    if not folder.is_dir():
        raise WeightsError(
            f"douzero weights: {str(folder)!r} is not a folder; it must hold "
            "landlord, landlord_up and landlord_down (.ckpt or .npz)"
        )
    found: dict[str, Path] = {}
    for position in POSITIONS:
        for suffix in (".npz", ".ckpt"):
            path = folder / f"{position}{suffix}"
            if path.is_file():
                found[position] = path
                break
    missing = [p for p in POSITIONS if p not in found]
    if missing:
        names = ", ".join(f"{p}.ckpt" for p in missing)
        raise WeightsError(f"douzero weights: {folder} has no {names} (nor .npz of those names)")
    return found


def bidding_file(directory: str | os.PathLike[str]) -> Path | None:
    """The bidding network's file in ``directory`` (``bidding.npz`` or ``.ckpt``), if any."""
    folder = Path(directory).expanduser()
    for suffix in (".npz", ".ckpt"):
        path = folder / f"bidding{suffix}"
        if path.is_file():
            return path
    return None


@functools.lru_cache(maxsize=6)
def _cached_net(path: str, mtime_ns: int, size: int, position: str) -> DouZeroNet:
    return load_net(path, position)


def cached_net(path: Path, position: str) -> DouZeroNet:
    """`load_net`, read once per file version: an arena builds a fresh agent for every game."""
    stat = path.stat()
    return _cached_net(str(path.resolve()), stat.st_mtime_ns, stat.st_size, position)
