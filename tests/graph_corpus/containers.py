"""Dict items, list items and object attributes as state in staged branches and loops."""

import collections
import types

import numpy as np

from tests.graph_corpus import case, limit

X = np.array([1.0, 2.0])
Y = np.array([3.0, 4.0])
Stats = collections.namedtuple("Stats", ["mean", "spread"])


@case((X, Y), (Y, X), cls=(3,))
def best_dict(x, y):
    best = {"value": x}
    if np.sum(y) > np.sum(x):
        best["value"] = y
    return best["value"]


@case((np.array([1.0, -2.0, 3.0]),), (np.array([-1.0]),), cls=(3,))
def stats_dict_loop(x):
    stats = {"count": 0, "total": 0.0}
    for v in x:
        if v > 0:
            stats["count"] += 1
            stats["total"] += v
    return stats


@case((X,), (-X,), cls=(3,))
def list_item_in_branch(x):
    vals = [x, x]
    if np.mean(x) > 0:
        vals[0] = x * 10
    else:
        vals[1] = x - 10
    return vals


@case((X,), (-X,), cls=(3,))
def namespace_attribute(x):
    state = types.SimpleNamespace(scale=1.0, shift=x)
    if np.sum(x) > 0:
        state.scale = 2.0
        state.shift = x * 0
    return x * state.scale + state.shift


@case(
    (X, types.SimpleNamespace(count=0, last=None)),
    (-X, types.SimpleNamespace(count=5, last=None)),
    cls=(3, 2),
)
@limit("an attribute holding None (or a non-numeric value) that the function changes")
def attribute_of_argument(x, ns):
    for v in x:
        if v > 1:
            ns.count += 1
            ns.last = v
    return ns.count


@case((X,), (-X,), cls=(3,))
def nested_dict(x):
    cfg = {"opt": {"lr": 0.1, "steps": 0}}
    if np.min(x) > 0:
        cfg["opt"]["lr"] = 0.01
    for _ in range(3):
        cfg["opt"]["steps"] += 1
    return cfg


@case((np.array([1.0, 3.0, 2.0]),), (np.array([5.0]),), cls=(3, 4))
def stats_namedtuple(x):
    mean = np.mean(x)
    if np.max(x) - np.min(x) > 1:
        spread = np.max(x) - np.min(x)
    else:
        spread = 0.0
    return Stats(mean, spread)


@case((X, {"a": np.float64(1.0)}), (-X, {"a": np.float64(2.0)}), cls=(3,))
def dict_argument_updated(x, d):
    if np.sum(x) > 0:
        d["a"] = d["a"] + np.sum(x)
        d["seen"] = True
    return d["a"]


@case((X, [np.float64(0.0)]), (-X, [np.float64(5.0)]), cls=(3, 7))
@limit("a list argument changed other than by append() inside a staged loop")
def list_argument_appended(x, log):
    for v in x:
        if v > 0:
            log.append(v)
        else:
            log[0] = log[0] + v
    return len(log)


@case((np.array([0.5, 0.9, 0.2]),), (np.array([0.1]),), cls=(3, 5))
def best_record(scores):
    record = {"score": -1.0, "index": -1}
    for i, s in enumerate(scores):
        if s > record["score"]:
            record["score"] = s
            record["index"] = i
    return record


class Box:
    def __init__(self, value):
        self.value = value


@case((X,), (-X,), cls=(3,))
def box_in_loop(x):
    box = Box(np.zeros_like(x))
    for _ in range(3):
        if np.sum(x) > 0:
            box.value = box.value + x
        else:
            box.value = box.value - 1
    return box.value


@case((X, Box(np.float64(1.0))), (-X, Box(np.float64(1.0))), cls=(3,))
def box_argument(x, box):
    if np.sum(x) > 0:
        box.value = box.value * 2
    return x + box.value


@case((np.array([1.0, 2.0, 3.0]),), (np.array([-1.0, -2.0]),), cls=(3, 4))
def count_signs(x):
    groups = {"pos": 0, "neg": 0}
    for v in x:
        if v > 0:
            groups["pos"] += 1
        else:
            groups["neg"] += 1
    return groups


@case((X, Y), (Y, X), cls=(3, 4))
def swap_dict_entries(x, y):
    pair = {"a": x, "b": y}
    if np.sum(x) > np.sum(y):
        pair["a"], pair["b"] = pair["b"], pair["a"]
    return pair


@case((np.array([1.0, -1.0, 2.0]),), (np.array([-3.0]),), cls=(3, 4))
def metrics_dict_branches(x):
    metrics = {}
    metrics["n"] = len(x)
    if np.mean(x) > 0:
        metrics["direction"] = 1.0
    else:
        metrics["direction"] = -1.0
    metrics["mean"] = np.mean(x)
    return metrics


@case((X, Y), (Y, X), cls=(3,))
def tuple_state_in_dict(x, y):
    state = {"pair": (x, y)}
    if np.sum(x) > np.sum(y):
        state["pair"] = (y, x)
    return state["pair"]
