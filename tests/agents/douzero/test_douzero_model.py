"""DouZero's networks in numpy: the forward pass, and the weights files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray
from torch_files import write_legacy, write_zip

import shedkit
from shedkit.agents.douzero.encoding import POSITIONS, X_SIZE, encode
from shedkit.agents.douzero.model import (
    DouZeroNet,
    WeightsError,
    load_net,
    load_weights,
    param_shapes,
    random_params,
    save_npz,
    weights_files,
)


def reference_values(
    params: dict[str, NDArray[np.float32]], z: NDArray[np.float32], x: NDArray[np.float32]
) -> NDArray[np.float64]:
    """PyTorch's LSTM and DouZero's dense layers written out step by step, in float64."""

    def sigmoid(v: NDArray[np.float64]) -> NDArray[np.float64]:
        out: NDArray[np.float64] = 1.0 / (1.0 + np.exp(-v))
        return out

    p = {k: v.astype(np.float64) for k, v in params.items()}
    values = []
    for zi, xi in zip(z.astype(np.float64), x.astype(np.float64), strict=True):
        h, c = np.zeros(128), np.zeros(128)
        for row in zi:
            gates = p["lstm.weight_ih_l0"] @ row + p["lstm.bias_ih_l0"]
            gates += p["lstm.weight_hh_l0"] @ h + p["lstm.bias_hh_l0"]
            i, f, g, o = np.split(gates, 4)
            c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
            h = sigmoid(o) * np.tanh(c)
        y = np.concatenate([h, xi])
        for layer in range(1, 7):
            y = p[f"dense{layer}.weight"] @ y + p[f"dense{layer}.bias"]
            if layer < 6:
                y = np.maximum(y, 0.0)
        values.append(y[0])
    return np.array(values)


def positions() -> list[tuple[str, NDArray[np.float32], NDArray[np.float32]]]:
    """Observations of real positions: (position, z_batch, x_batch)."""
    game = shedkit.make("doudizhu")
    out = []
    for seed in range(6):
        state = game.new_deal(seed=seed, landlord=seed % 3)
        for _ in range(3 + seed):
            obs = encode(state.view(state.current_player))
            out.append((obs.position, obs.z_batch, obs.x_batch))
            state.apply(state.legal_moves()[-1])
    return out


def test_the_forward_pass_is_pytorchs_lstm_and_douzeros_layers() -> None:
    nets = {p: random_params(p, seed=i) for i, p in enumerate(POSITIONS)}
    # Larger weights than PyTorch's start: saturated gates and big values are checked too.
    nets["landlord"] = {k: 4 * v for k, v in nets["landlord"].items()}
    seen = set()
    for position, z, x in positions():
        net = DouZeroNet(nets[position])
        values = net.values(z, x)
        assert values.dtype == np.float32 and values.shape == (len(x),)
        ref = reference_values(nets[position], z, x)
        assert np.allclose(values, ref, rtol=1e-5, atol=1e-5)
        # One shared history gives the same values as DouZero's repeated z_batch.
        assert np.allclose(net.values(z[0], x), values, rtol=1e-5, atol=1e-5)
        assert net.best(z, x) == int(np.argmax(values))
        seen.add(position)
    assert seen == set(POSITIONS)


def test_npz_round_trip(tmp_path: Path) -> None:
    for i, position in enumerate(POSITIONS):
        params = random_params(position, seed=10 + i)
        path = tmp_path / f"{position}.npz"
        save_npz(params, path)
        read = load_weights(path)
        assert set(read) == set(params) == set(param_shapes(position))
        assert all(np.array_equal(read[k], params[k]) for k in params)
        net = load_net(path, position)
        assert net.x_size == X_SIZE[position]
        z, x = np.zeros((5, 162), np.float32), np.ones((2, net.x_size), np.float32)
        assert np.array_equal(net.values(z, x), DouZeroNet(params).values(z, x))
    # A network saved from another network's parameters is the same network.
    again = tmp_path / "again.npz"
    save_npz(DouZeroNet(random_params("landlord", 3)).params, again)
    assert all(
        np.array_equal(load_weights(again)[k], v) for k, v in random_params("landlord", 3).items()
    )


def test_a_weights_folder(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match="is not a folder"):
        weights_files(tmp_path / "none")
    save_npz(random_params("landlord"), tmp_path / "landlord.npz")
    write_zip(tmp_path / "landlord.ckpt", random_params("landlord", 1))
    write_zip(tmp_path / "landlord_up.ckpt", random_params("landlord_up"))
    with pytest.raises(WeightsError, match=r"no landlord_down\.ckpt"):
        weights_files(tmp_path)
    write_legacy(tmp_path / "landlord_down.ckpt", random_params("landlord_down"))
    files = weights_files(tmp_path)
    # The .npz wins over a .ckpt of the same name: reading it unpickles nothing.
    assert [f.name for f in files.values()] == [
        "landlord.npz",
        "landlord_up.ckpt",
        "landlord_down.ckpt",
    ]


def test_parameters_that_are_not_a_douzero_network(tmp_path: Path) -> None:
    params = random_params("landlord_up")
    with pytest.raises(WeightsError, match="512 × 501"):
        DouZeroNet({k: v for k, v in params.items() if k != "dense1.weight"})
    with pytest.raises(WeightsError, match=r"no dense6\.bias"):
        DouZeroNet({k: v for k, v in params.items() if k != "dense6.bias"})
    with pytest.raises(WeightsError, match=r"lstm\.weight_hh_l0"):
        DouZeroNet({**params, "lstm.weight_hh_l0": np.zeros((512, 64), np.float32)})
    path = tmp_path / "up.npz"
    save_npz(params, path)
    with pytest.raises(WeightsError, match="not a landlord network"):
        load_net(path, "landlord")
    # Extra entries (an optimiser's, say) are left alone, as DouZero's loader does.
    assert DouZeroNet({**params, "extra": np.zeros(3)}).x_size == 484
    net = DouZeroNet(params)
    with pytest.raises(ValueError, match="x must be n × 484"):
        net.values(np.zeros((5, 162)), np.zeros((2, 373)))
