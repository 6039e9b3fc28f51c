"""PyTorch checkpoints read without PyTorch: both formats, and hostile files refused unrun."""

from __future__ import annotations

import os
import pickle
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from torch_files import (
    BINPERSID,
    PROTO2,
    REDUCE,
    STOP,
    global_,
    integer,
    ordered_dict,
    tuple_,
    unicode,
    write_legacy,
    write_zip,
)

import shedkit
from shedkit.agents import make_agent
from shedkit.agents.douzero.checkpoint import WeightsError, read_checkpoint
from shedkit.agents.douzero.model import load_weights, random_params, save_npz
from shedkit.core.errors import OptionError


class RunsAProgram:
    """Unpickled, this would run ``touch MARKER``: the checkpoint attack."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


class Evaluates:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (eval, (f"open({str(self.marker)!r}, 'w')",))


@pytest.fixture
def params() -> dict[str, Any]:
    return random_params("landlord", seed=4)


@pytest.mark.parametrize("writer", [write_zip, write_legacy])
def test_both_formats_read_back_the_state_dict(
    tmp_path: Path, params: dict[str, Any], writer: Any
) -> None:
    path = tmp_path / "landlord.ckpt"
    writer(path, params)
    read = read_checkpoint(path)
    assert list(read) == list(params)
    for name, array in params.items():
        assert read[name].dtype == np.float32 and np.array_equal(read[name], array)


def test_a_checkpoint_that_runs_a_program_is_refused_and_nothing_runs(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    for protocol in (2, 4):
        path = tmp_path / f"evil{protocol}.ckpt"
        write_zip(path, {}, data_pkl=pickle.dumps(RunsAProgram(marker), protocol))
        with pytest.raises(WeightsError, match=r"refused: it names (posix|os|nt)\.system"):
            read_checkpoint(path)
    evil = tmp_path / "eval.ckpt"
    write_legacy(evil, {}, main_pkl=pickle.dumps(Evaluates(marker), 2))
    with pytest.raises(WeightsError, match=r"refused: it names (builtins|__builtin__)\.eval"):
        read_checkpoint(evil)
    assert not marker.exists()


def test_hostile_globals_anywhere_in_the_file_are_refused(
    tmp_path: Path, params: dict[str, Any]
) -> None:
    marker = tmp_path / "ran"
    # Inside a tensor's arguments, where the allowed rebuilder would receive it.
    nested = (
        PROTO2
        + global_("torch._utils", "_rebuild_tensor_v2")
        + tuple_(global_("subprocess", "getoutput") + tuple_(unicode("id")) + REDUCE)
        + REDUCE
        + STOP
    )
    path = tmp_path / "nested.ckpt"
    write_zip(path, params, data_pkl=nested)
    with pytest.raises(WeightsError, match=r"subprocess\.getoutput"):
        read_checkpoint(path)
    # In the legacy file's first pickle, read before anything else.
    legacy = tmp_path / "legacy.ckpt"
    write_legacy(legacy, params)
    legacy.write_bytes(pickle.dumps(RunsAProgram(marker), 2) + legacy.read_bytes())
    with pytest.raises(WeightsError, match="refused"):
        read_checkpoint(legacy)
    # What the file reaches of the reader cannot be changed for the loads after it.
    for target in (global_("torch", "FloatStorage"), global_("torch._utils", "_rebuild_tensor_v2")):
        for state in (b"}" + unicode("dtype") + integer(1) + b"s", b"(N}" + unicode("fn") + b"Nst"):
            write_zip(path, params, data_pkl=PROTO2 + target + state + b"b" + STOP)
            with pytest.raises(WeightsError):
                read_checkpoint(path)
    write_zip(path, params)
    assert np.array_equal(read_checkpoint(path)["dense6.bias"], params["dense6.bias"])
    # A storage type is data, not something to call.
    called = PROTO2 + global_("torch", "FloatStorage") + tuple_(integer(3)) + REDUCE + STOP
    write_zip(path, params, data_pkl=called)
    with pytest.raises(WeightsError, match="not a readable checkpoint"):
        read_checkpoint(path)
    assert not marker.exists()


def test_an_agent_with_a_hostile_weights_file_is_not_made(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    for position in ("landlord_up", "landlord_down"):
        save_npz(random_params(position), tmp_path / f"{position}.npz")
    write_zip(tmp_path / "landlord.ckpt", {}, data_pkl=pickle.dumps(RunsAProgram(marker), 2))
    with pytest.raises(WeightsError, match="refused"):
        make_agent(f"douzero:{tmp_path}", shedkit.make("doudizhu"))
    assert not marker.exists()
    assert issubclass(WeightsError, OptionError)


def storage_pickle(key: str, numel: int, size: int, offset: int = 0) -> bytes:
    pid = tuple_(
        unicode("storage"),
        global_("torch", "FloatStorage"),
        unicode(key),
        unicode("cpu"),
        integer(numel),
    )
    tensor = global_("torch._utils", "_rebuild_tensor_v2") + tuple_(
        pid + BINPERSID,
        integer(offset),
        tuple_(integer(size)),
        tuple_(integer(1)),
        b"\x89",
        ordered_dict(),
    )
    return PROTO2 + ordered_dict() + b"(" + unicode("w") + tensor + REDUCE + b"u" + STOP


def test_damaged_or_odd_files_get_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "w.ckpt"
    # A storage key that would reach outside the archive's data folder.
    write_zip(path, {"w": np.zeros(4, np.float32)}, data_pkl=storage_pickle("../../x", 4, 4))
    with pytest.raises(WeightsError, match="not a plain name"):
        read_checkpoint(path)
    # A tensor that reaches past the end of its storage.
    write_zip(path, {"w": np.zeros(4, np.float32)}, data_pkl=storage_pickle("0", 4, 4, offset=2))
    with pytest.raises(WeightsError, match="past the end"):
        read_checkpoint(path)
    # A storage that holds fewer bytes than it says.
    write_zip(path, {"w": np.zeros(2, np.float32)}, data_pkl=storage_pickle("0", 4, 4))
    with pytest.raises(WeightsError, match="fewer bytes"):
        read_checkpoint(path)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("notes.txt", "hello")
    with pytest.raises(WeightsError, match=r"no single NAME/data\.pkl"):
        read_checkpoint(path)
    path.write_bytes(b"not a checkpoint at all")
    with pytest.raises(WeightsError, match="not a PyTorch checkpoint"):
        read_checkpoint(path)
    with pytest.raises(WeightsError, match="cannot read it"):
        read_checkpoint(tmp_path / "missing.ckpt")
    write_legacy(path, {"w": np.arange(6, dtype=np.float32)})
    path.write_bytes(path.read_bytes()[:-8])
    with pytest.raises(WeightsError, match="ends inside storage"):
        read_checkpoint(path)
    write_zip(path, {}, data_pkl=pickle.dumps([1, 2], 2))
    with pytest.raises(WeightsError, match="no state dict"):
        read_checkpoint(path)


def test_npz_of_objects_is_not_unpickled(tmp_path: Path) -> None:
    path = tmp_path / "landlord.npz"
    np.savez(path, w=np.array([RunsAProgram(tmp_path / "ran")], dtype=object))
    with pytest.raises(WeightsError, match=r"not a readable \.npz"):
        load_weights(path)
    assert not (tmp_path / "ran").exists()
