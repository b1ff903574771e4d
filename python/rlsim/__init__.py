"""rlsim from Python: load a scenario, run it, sweep it, compare policies, plan a GPU budget,
forecast a whole run, price an op.

Every call runs rlsim's own C++ command line (the module ``rlsim._rlsim``) in a child process, as
the ``rlsim`` executable does, so figures are the same to the byte. Results come back as the dicts
of metrics.json and, for tables, as ``pandas.DataFrame`` when pandas is importable (lists of dicts
otherwise)::

    import rlsim
    result = rlsim.load("scenarios/quickstart.yaml").run()
    result.metrics["step_time_s"]["steady_mean"]
    rlsim.sweep("scenarios/quickstart.yaml", {"rollout.max_batch": [32, 64, 128]})

Times are in seconds in every metric and column (``*_s``); bad input raises ``rlsim.InputError``
with rlsim's message (FILE:LINE:COL: error: ...).
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import tempfile
import weakref
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from . import _rlsim

__all__ = ["InputError", "RlsimError", "Scenario", "Result", "load", "run", "sweep", "compare", "plan", "forecast",
           "cost", "cli"]


class InputError(ValueError):
    """rlsim refused its input (exit code 2); the message says where and what was expected."""


class RlsimError(RuntimeError):
    """rlsim failed for another reason (exit code 1 or a signal)."""


def cli(*args: Any) -> tuple:
    """Runs ``rlsim ARGS...``; returns (exit code, stdout, stderr) without raising."""
    return _rlsim.cli([str(a) for a in args])


def _call(*args: Any) -> str:
    code, out, err = cli(*args)
    if code == 2:
        raise InputError(err.strip())
    if code != 0:
        raise RlsimError(f"rlsim {args[0]} failed (exit {code}): {err.strip()}")
    return out


def _yaml_value(value: Any) -> str:
    """A value as a --set takes it: YAML scalars, or flow YAML (JSON) for mappings and lists."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value)
    return str(value)


def _set_args(overrides: Optional[Mapping[str, Any]]) -> List[str]:
    args: List[str] = []
    for path, value in (overrides or {}).items():
        args += ["--set", f"{path}={_yaml_value(value)}"]
    return args


def _number(text: str) -> Any:
    """A CSV cell as int, float or text (empty: None)."""
    if text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _table(rows: List[Dict[str, Any]]):
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame(rows)


def _read_csv(path: str) -> List[Dict[str, Any]]:
    with open(path, newline="") as f:
        return [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(f)]


def _remove_with(owner: Any, folder: str) -> None:
    """Removes the temporary ``folder`` once ``owner`` is collected (or the interpreter exits)."""
    weakref.finalize(owner, shutil.rmtree, folder, True)


class Result:
    """One run: ``metrics`` (metrics.json as a dict), ``steps`` (its per-step records), ``summary``
    (the text ``rlsim run`` prints) and ``out`` (the folder with trace.json, report.html, ...)."""

    def __init__(self, metrics: Dict[str, Any], summary: str, out: str):
        self.metrics = metrics
        self.summary = summary
        self.out = out

    @property
    def steps(self) -> List[Dict[str, Any]]:
        return list(self.metrics.get("per_step", []))

    @property
    def requests(self) -> List[Dict[str, Any]]:
        """A serve run's requests (requests.csv); empty for other kinds."""
        path = os.path.join(self.out, "requests.csv")
        return _read_csv(path) if os.path.exists(path) else []

    def table(self, name: str = "steps"):
        """``steps`` or ``requests`` as a DataFrame (a list of dicts without pandas)."""
        return _table(getattr(self, name))

    def __repr__(self) -> str:
        return f"<rlsim.Result of {self.metrics.get('scenario', '?')}>"


class Scenario:
    """A scenario rlsim has loaded and checked (``rlsim validate``), with its overrides."""

    def __init__(self, path: str, overrides: Optional[Mapping[str, Any]] = None):
        self.path = path
        self.overrides = dict(overrides or {})
        self.checked = _call("validate", path, *_set_args(self.overrides))

    def run(self, seed: Optional[int] = None, out: Optional[str] = None) -> Result:
        """Simulates it; ``out`` keeps the output files there (else a temporary folder that lives
        as long as the result)."""
        folder = out if out is not None else tempfile.mkdtemp(prefix="rlsim-run-")
        args = ["run", self.path, *_set_args(self.overrides), "--out", folder, "--quiet"]
        if seed is not None:
            args += ["--seed", str(seed)]
        try:
            summary = _call(*args)
            with open(os.path.join(folder, "metrics.json")) as f:
                result = Result(json.load(f), summary, folder)
        except BaseException:
            if out is None:
                shutil.rmtree(folder, ignore_errors=True)
            raise
        if out is None:
            _remove_with(result, folder)
        return result

    def __repr__(self) -> str:
        return f"<rlsim.Scenario {self.path} {self.overrides or ''}>"


def load(scenario: Union[str, os.PathLike, Mapping[str, Any]], set: Optional[Mapping[str, Any]] = None) -> Scenario:
    """Loads and checks a scenario file, or a scenario given as a dict (the YAML's structure).

    ``set`` overrides fields by path, as ``--set`` does: ``{"workload.steps": 4}``.
    """
    if isinstance(scenario, Mapping):
        folder = tempfile.mkdtemp(prefix="rlsim-scenario-")
        path = os.path.join(folder, "scenario.yaml")
        with open(path, "w") as f:
            json.dump(scenario, f)  # JSON is YAML
        try:
            loaded = Scenario(path, set)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        _remove_with(loaded, folder)
        return loaded
    return Scenario(os.fspath(scenario), set)


def run(scenario: Union[str, os.PathLike, Mapping[str, Any]], set: Optional[Mapping[str, Any]] = None, **options: Any) -> Result:
    """``load(scenario, set).run(**options)``."""
    return load(scenario, set).run(**options)


def sweep(scenario: Union[str, os.PathLike], params: Mapping[str, Union[str, Sequence[Any]]],
          set: Optional[Mapping[str, Any]] = None, jobs: int = 1, out: Optional[str] = None):
    """Runs ``rlsim sweep``: the grid of ``params`` (path -> values, or rlsim's own text
    ``"lo:hi:step"``/``"v1,v2"``); returns one row per point with every scalar metric flattened
    (sweep-metrics.csv: ``step_time_s.steady_mean``, ``bubble_by_cause.train_waits_rollout``, ...).
    ``out`` keeps the sweep folder (points/N/metrics.json, sweep.csv, report.html)."""
    folder = out if out is not None else tempfile.mkdtemp(prefix="rlsim-sweep-")
    args = ["sweep", os.fspath(scenario), *_set_args(set), "--out", folder, "--jobs", str(jobs), "--quiet"]
    for path, values in params.items():
        text = values if isinstance(values, str) else ",".join(_yaml_value(v) for v in values)
        args += ["--param", f"{path}={text}"]
    try:
        _call(*args)
        return _table(_read_csv(os.path.join(folder, "sweep-metrics.csv")))
    finally:
        if out is None:
            shutil.rmtree(folder, ignore_errors=True)


def compare(scenario: Union[str, os.PathLike], set: Optional[Mapping[str, Any]] = None,
            policies: Optional[Iterable[str]] = None, jobs: int = 1):
    """Runs ``rlsim compare``: one row per policy (compare.csv)."""
    folder = tempfile.mkdtemp(prefix="rlsim-compare-")
    args = ["compare", os.fspath(scenario), *_set_args(set), "--out", folder, "--jobs", str(jobs)]
    if policies is not None:
        args += ["--policies", ",".join(policies)]
    try:
        _call(*args)
        return _table(_read_csv(os.path.join(folder, "compare.csv")))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _flag_args(options: Mapping[str, Any]) -> List[str]:
    """Keyword options as flags: ``target_step_time="60s"`` -> ``--target-step-time 60s``; lists
    joined by commas (``policies=["colocated", "streaming"]``)."""
    args: List[str] = []
    for name, value in options.items():
        if isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        args += [f"--{name.replace('_', '-')}", _yaml_value(value)]
    return args


def plan(scenario: Union[str, os.PathLike], gpus: str, set: Optional[Mapping[str, Any]] = None,
         jobs: int = 2, **options: Any):
    """Runs ``rlsim plan``: every arrangement of the inventory ``gpus`` (``"H800:64,H20:64"``) with
    what became of it (plan.csv: its bound, whether it was simulated, its steady step and cost), a
    DataFrame; ``options`` are plan's flags (``target_step_time="60s"``, ``rollout_tp=[1, 2]``,
    ``budget_usd_per_hour=60``). For a serving scenario, its deployments and whether they met the SLO."""
    folder = tempfile.mkdtemp(prefix="rlsim-plan-")
    args = ["plan", os.fspath(scenario), *_set_args(set), "--gpus", gpus, "--out", folder, "--jobs", str(jobs),
            "--quiet", *_flag_args(options)]
    try:
        _call(*args)
        return _table(_read_csv(os.path.join(folder, "plan.csv")))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def forecast(scenario: Union[str, os.PathLike], steps: int, set: Optional[Mapping[str, Any]] = None,
             jobs: int = 2, **options: Any) -> Dict[str, Any]:
    """Runs ``rlsim forecast``: a whole run of ``steps`` steps as its responses grow
    (workload.length_schedule). Returns forecast.json (per policy hours, usd, ...) with its
    simulated steps under ``"samples"`` (forecast.csv); ``options`` are forecast's flags
    (``policies=["colocated", "disaggregated"]``, ``eval_every=50``, ``eval_time="3min"``)."""
    folder = tempfile.mkdtemp(prefix="rlsim-forecast-")
    args = ["forecast", os.fspath(scenario), *_set_args(set), "--steps", str(steps), "--out", folder,
            "--jobs", str(jobs), "--quiet", *_flag_args(options)]
    try:
        _call(*args)
        with open(os.path.join(folder, "forecast.json")) as f:
            result = json.load(f)
        result["samples"] = _table(_read_csv(os.path.join(folder, "forecast.csv")))
        return result
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class _Cost:
    """``rlsim cost OP --json``: the predicted time of one op, called with its name or as an
    attribute (``-`` in rlsim's op names is ``_`` here)::

        rlsim.cost("decode", model="llama-3-8b", hardware="H100", batch=32, context=2048)
        rlsim.cost.decode(model="llama-3-8b", hardware="H100", batch=32, context=2048)
        rlsim.cost.attention_decode(...), rlsim.cost.gemm(...), rlsim.cost.all_reduce(...)
    """

    def __call__(self, op: str, **options: Any) -> Dict[str, Any]:
        args = ["cost", op.replace("_", "-"), "--json"]
        for name, value in options.items():
            args += [f"--{name.replace('_', '-')}", _yaml_value(value)]
        return json.loads(_call(*args))

    def __getattr__(self, op: str):
        if op.startswith("__"):
            raise AttributeError(op)
        return lambda **options: self(op, **options)


cost = _Cost()
