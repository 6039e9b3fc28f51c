"""Against PyTorch itself (optional: runs where ``torch`` and ``douzero`` are installed).

DouZero's own ``LandlordLstmModel`` and ``FarmerLstmModel``, seeded, saved with
``torch.save`` in both formats, read by shedkit without PyTorch: the numpy
forward pass gives PyTorch's values on real positions to 1e-5, and the same
best action. PyTorch also reads the checkpoints the tests write by hand.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from torch_files import write_legacy, write_zip

import shedkit
from shedkit.agents.douzero.encoding import POSITIONS, encode
from shedkit.agents.douzero.model import load_net, random_params

torch = pytest.importorskip("torch", reason="torch is not installed (optional cross-check)")


def douzero_models() -> ModuleType:
    """``douzero/dmc/models.py`` alone: the package's ``dmc`` imports training tools."""
    spec = importlib.util.find_spec("douzero")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("douzero is not installed")
    path = Path(next(iter(spec.submodule_search_locations))) / "dmc" / "models.py"
    module_spec = importlib.util.spec_from_file_location("douzero_dmc_models", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def observations() -> list[Any]:
    game = shedkit.make("doudizhu")
    out = []
    for seed in range(8):
        state = game.new_deal(seed=seed, landlord=seed % 3)
        for step in range(4 + 3 * seed):
            if state.is_over:
                break
            out.append(encode(state.view(state.current_player)))
            moves = state.legal_moves()
            state.apply(moves[(seed + step) % len(moves)])
    return out


@pytest.mark.parametrize(("legacy", "scale"), [(False, 1.0), (True, 1.0), (False, 3.0)])
def test_numpy_gives_pytorchs_values(tmp_path: Path, legacy: bool, scale: float) -> None:
    """PyTorch's initial weights, and three times them (saturated gates, larger values)."""
    models = douzero_models()
    torch.manual_seed(2021)
    nets = {}
    for position in POSITIONS:
        model = models.model_dict[position]()
        model.eval()
        with torch.no_grad():
            for param in model.parameters():
                param.mul_(scale)
        path = tmp_path / f"{position}.ckpt"
        torch.save(model.state_dict(), path, _use_new_zipfile_serialization=not legacy)
        nets[position] = (model, load_net(path, position))
    worst = 0.0
    obs_list = observations()
    for obs in obs_list:
        model, net = nets[obs.position]
        with torch.no_grad():
            z, x = torch.from_numpy(obs.z_batch), torch.from_numpy(obs.x_batch)
            ref = model.forward(z, x, return_value=True)["values"].numpy()[:, 0]
        mine = net.values(obs.z_batch, obs.x_batch)
        worst = max(worst, float(np.max(np.abs(mine - ref))))
        assert np.allclose(mine, ref, rtol=0, atol=1e-5)
        assert np.allclose(net.values(obs.z, obs.x_batch), ref, rtol=0, atol=1e-5)
        if len(ref) > 1 and np.sort(ref)[-1] - np.sort(ref)[-2] > 1e-4:
            assert net.best(obs.z, obs.x_batch) == int(np.argmax(ref))
    print(f"max |numpy - torch| = {worst:.2e} over {len(obs_list)} positions (scale {scale})")


def test_pytorch_reads_the_hand_written_checkpoints(tmp_path: Path) -> None:
    params = random_params("landlord", seed=5)
    for writer in (write_zip, write_legacy):
        path = tmp_path / f"{writer.__name__}.ckpt"
        writer(path, params)
        state = torch.load(path, weights_only=True)
        assert list(state) == list(params)
        assert all(np.array_equal(state[k].numpy(), v) for k, v in params.items())
