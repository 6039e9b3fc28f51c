"""Bridging: a checkpoint written by ``shedkit train`` plays in DouZero's own ``DeepAgent``.

The trainer's networks after a few learning steps are written as DouZero
checkpoints; the ``douzero`` package's ``DeepAgent`` loads them (every parameter
by name: its loader silently skips unknown names, so the names are compared
first) and, on more than a thousand positions of seeded deals replayed through
DouZero's own game, gives the action values of shedkit's numpy agent to 1e-5,
reading the same files (``.ckpt`` without PyTorch, and ``.npz``), and the same moves.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from douzero_env import douzero_game, env_module

import shedkit
from shedkit.agents import GreedyDouDizhu, RandomAgent
from shedkit.agents.douzero.encoding import POSITIONS, douzero_cards, encode
from shedkit.agents.douzero.model import load_net

torch = pytest.importorskip("torch", reason="torch is not installed (the [train] extra)")
deep_agent = pytest.importorskip("douzero.evaluation.deep_agent")

from shedkit.train.dmc import TrainConfig, Trainer  # noqa: E402

POSITIONS_WANTED = 1000


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A trainer's networks after some learning steps on random targets, checkpointed."""
    out = tmp_path_factory.mktemp("bridge")
    trainer = Trainer(TrainConfig(out=out, frames=1, batch_size=32, seed=5))
    rng = np.random.default_rng(5)
    for position in POSITIONS:
        size = trainer.nets[position].dense1.in_features - 128
        for _ in range(3):
            x = (rng.random((32, size)) < 0.2).astype(np.int8)
            z = (rng.random((32, 5, 162)) < 0.1).astype(np.int8)
            trainer._learn(position, (x, z, rng.normal(0, 2, 32).astype(np.float32)))
    trainer.checkpoint()
    return out


def test_douzeros_deep_agent_plays_shedkits_checkpoint(written: Path) -> None:
    agents = {p: deep_agent.DeepAgent(p, str(written / f"{p}.ckpt")) for p in POSITIONS}
    for p, agent in agents.items():
        saved = torch.load(written / f"{p}.ckpt", weights_only=True)
        assert set(saved) == set(agent.model.state_dict()), p
        for name, tensor in agent.model.state_dict().items():
            assert torch.equal(tensor, saved[name]), (p, name)
    from_ckpt = {p: load_net(written / f"{p}.ckpt", p) for p in POSITIONS}
    from_npz = {p: load_net(written / f"{p}.npz", p) for p in POSITIONS}
    game = shedkit.make("doudizhu")
    positions = moves_equal = 0
    worst = 0.0
    for deal in range(400):
        if positions >= POSITIONS_WANTED:
            break
        state = game.new_deal(seed=9000 + deal, landlord=deal % 3, bid=1)
        players = [
            GreedyDouDizhu(game, deal) if (deal + s) % 2 else RandomAgent(game, deal * 3 + s)
            for s in range(3)
        ]
        env = douzero_game(state)
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            infoset = env.game_infoset
            if len(infoset.legal_actions) > 1:
                theirs_obs = env_module.get_obs(infoset)
                model = agents[infoset.player_position].model
                with torch.no_grad():
                    theirs = model.forward(
                        torch.from_numpy(theirs_obs["z_batch"]).float(),
                        torch.from_numpy(theirs_obs["x_batch"]).float(),
                        return_value=True,
                    )["values"].numpy()[:, 0]
                ours_obs = encode(view)
                ours = from_ckpt[ours_obs.position].values(ours_obs.z, ours_obs.x_batch)
                again = from_npz[ours_obs.position].values(ours_obs.z, ours_obs.x_batch)
                assert np.array_equal(ours, again)
                worst = max(worst, float(np.max(np.abs(ours - theirs))))
                np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-5)
                chosen = agents[infoset.player_position].act(infoset)
                moves_equal += chosen == list(ours_obs.actions[int(np.argmax(ours))])
                positions += 1
            listed = {tuple(a) for a in infoset.legal_actions}
            both = tuple(m for m in view.legal_moves if tuple(douzero_cards(m.ranks)) in listed)
            move = players[seat].act(dataclasses.replace(view, legal_moves=both))
            state.apply(move)
            env.players[infoset.player_position].set_action(douzero_cards(move.ranks))
            env.step()
    assert positions >= POSITIONS_WANTED
    assert moves_equal == positions, f"{positions - moves_equal} moves differ (worst {worst:.2e})"
