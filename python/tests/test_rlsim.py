"""The Python package rlsim: load, run, sweep, compare, plan, forecast and cost through rlsim's own command line,
bad input raised with rlsim's located message, and the example notebook's cells run as a reader
would run them. Run from the repository root with build/python on PYTHONPATH (CTest does)."""

import json
import os

import pytest

import rlsim

QUICKSTART = "scenarios/quickstart.yaml"
SHORT = {"workload.steps": 2}


def rows(table):
    """A DataFrame or a list of dicts as a list of dicts."""
    return table.to_dict("records") if hasattr(table, "to_dict") else table


def test_a_run_returns_metrics_json_and_its_steps():
    result = rlsim.load(QUICKSTART, set=SHORT).run()
    assert result.metrics["scenario"] == "quickstart"
    assert result.metrics["steps"] == 2
    assert len(result.steps) == 2
    assert result.steps[0]["duration_s"] > 0
    assert result.metrics["step_time_s"]["mean"] == pytest.approx(
        sum(s["duration_s"] for s in result.steps) / 2, rel=1e-9)
    assert "rlsim: quickstart" in result.summary
    # Same scenario and seed, same figures; another seed, other figures.
    assert rlsim.load(QUICKSTART, set=SHORT).run().metrics == result.metrics
    assert rlsim.load(QUICKSTART, set=SHORT).run(seed=7).metrics != result.metrics


def test_bad_input_raises_with_the_file_line_and_column():
    with pytest.raises(rlsim.InputError) as error:
        rlsim.load(QUICKSTART, set={"workload.steps": "many"})
    assert "workload.steps" in str(error.value)
    with pytest.raises(rlsim.InputError) as error:
        rlsim.load(QUICKSTART, set={"rollout.tpp": 2})
    assert "rollout.tpp" in str(error.value)


def test_a_scenario_as_a_dict():
    scenario = {
        "name": "from-python",
        "model": "qwen3-8b",
        "cluster": {
            "pools": [{"name": "rollout", "gpu": "H20", "nodes": 1}, {"name": "train", "gpu": "H800", "nodes": 1}],
            "links": [
                {"between": ["rollout", "train"], "bandwidth": "400Gbps"},
                {"between": ["agents", "rollout"], "bandwidth": "100Gbps"},
                {"between": ["dataplane", "rollout"], "bandwidth": "100Gbps"},
            ],
        },
        "workload": {"steps": 2, "prompts_per_step": 4, "output_tokens": 128},
    }
    result = rlsim.run(scenario)
    assert result.metrics["scenario"] == "from-python"
    scenario["workload"]["prompts_per_step"] = -1
    with pytest.raises(rlsim.InputError) as error:
        rlsim.load(scenario)
    assert "scenario.yaml:1:" in str(error.value) and "prompts_per_step" in str(error.value)


def test_a_sweep_is_one_row_per_point_with_every_metric():
    table = rows(rlsim.sweep(QUICKSTART, {"rollout.max_batch": [32, 128]}, set=SHORT, jobs=2))
    assert [row["rollout.max_batch"] for row in table] == [32, 128]
    for column in ("step_time_s.steady_mean", "bubble.by_cause.train_waits_rollout", "inference.ttft_s.p99",
                   "mfu.training.update_actor", "pools.train.busy_fraction"):
        assert all(row[column] is not None for row in table), column
    # A point's figures are its run's.
    alone = rlsim.load(QUICKSTART, set={**SHORT, "rollout.max_batch": 128}).run()
    assert table[1]["step_time_s.mean"] == pytest.approx(alone.metrics["step_time_s"]["mean"], rel=1e-5)


def test_compare_and_cost():
    table = rows(rlsim.compare(QUICKSTART, set=SHORT, policies=["disaggregated", "overlap"], jobs=2))
    assert sorted(row["policy"] for row in table) == ["disaggregated", "overlap"]
    decode = rlsim.cost("decode", model="llama-3-8b", hardware="H100", batch=32, context=2048)
    assert decode["seconds"] > 0
    assert rlsim.cost.decode(model="llama-3-8b", hardware="H100", batch=32, context=2048) == decode
    with pytest.raises(rlsim.InputError):
        rlsim.cost("decode", model="no-such-model", hardware="H100", batch=1, context=1)


def test_plan_and_forecast():
    table = rows(rlsim.plan("scenarios/heterogeneous.yaml", "H800:16,H20:8", rollout_tp=[1, 2], train_tp=[1]))
    simulated = [row for row in table if row["status"] == "simulated"]
    assert simulated and len(simulated) <= len(table)
    assert all(row["bound_step_s"] <= row["steady_step_s"] for row in simulated)
    run = rlsim.forecast("scenarios/colocated-vs-disaggregated.yaml", 40, samples=3,
                         policies=["colocated", "disaggregated"])
    assert [p["policy"] for p in run["policies"]] == ["colocated", "disaggregated"]
    assert all(p["hours"] > 0 and p["usd"] > 0 for p in run["policies"])
    assert len(rows(run["samples"])) == 2 * 3
    with pytest.raises(rlsim.InputError):
        rlsim.plan("scenarios/heterogeneous.yaml", "H800:x")


def test_the_example_notebook_runs_cell_by_cell():
    with open("examples/python-quickstart.ipynb") as f:
        notebook = json.load(f)
    cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert cells, "the notebook has code cells"
    namespace = {}
    for cell in cells:
        exec(compile("".join(cell["source"]), "examples/python-quickstart.ipynb", "exec"), namespace)
    assert namespace["result"].metrics["steps"] > 0
