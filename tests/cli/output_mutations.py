"""The mutations of tests/cli/output_fuzz.py: one change to a real desync output file (HDF5) or
to the JSON of `desync plan`, drawn from a random.Random, written as a new file.

HDF5 (make_h5_mutant):
  truncate      the first k bytes of the file, k uniform in 0..size-1 (named NAME.h5.tmp one time
                in three: what a run killed while writing leaves)
  drop          delete one dataset or group (any depth)
  replace       a dataset becomes an empty group, or a group a scalar dataset
  attr_type     an attribute (root or of any object) changes type: number -> string, string ->
                number, array -> scalar
  dtype         a dataset is rewritten with another type: numbers -> strings, float <-> int, bool
  shape         a dataset is rewritten with another shape: a dimension dropped or added, the axes
                swapped, cut to half or to none along an axis, flattened, a scalar
  root_attr     delete one root attribute
JSON (make_json_mutant): truncate, drop a key, a value of another type.

Each returns (path of the mutant, one-line description). Python standard library, numpy, h5py.
"""

import json
import os
import shutil
import warnings

import numpy as np

H5_KINDS = (("truncate", 15), ("drop", 20), ("replace", 5), ("attr_type", 15), ("dtype", 15), ("shape", 20),
            ("root_attr", 10))
JSON_KINDS = ("truncate", "drop_key", "value_type")


def _weighted(rng, kinds):
    total = sum(w for _, w in kinds)
    x = rng.uniform(0, total)
    for k, w in kinds:
        x -= w
        if x <= 0:
            return k
    return kinds[-1][0]


def _objects(f):
    """(datasets, groups) of an open file: lists of paths, in a stable order."""
    import h5py
    datasets, groups = [], []
    f.visititems(lambda name, obj: (datasets if isinstance(obj, h5py.Dataset) else groups).append(name))
    return sorted(datasets), sorted(groups)


def _attributes(f):
    """(object path, attribute name) of every attribute, root ("/") included."""
    out = [("/", a) for a in sorted(f.attrs)]
    datasets, groups = _objects(f)
    for path in sorted(datasets + groups):
        out += [(path, a) for a in sorted(f[path].attrs)]
    return out


def _rewrite(f, path, data):
    """Replace dataset path by data, keeping its attributes."""
    attrs = {k: v for k, v in f[path].attrs.items()}
    data = np.asarray(data)
    if data.dtype.kind == "O":  # variable-length strings as h5py reads them: fixed-length ones
        data = np.asarray([x if isinstance(x, bytes) else str(x).encode() for x in data.reshape(-1)],
                          dtype="S").reshape(data.shape) if data.size else np.zeros(data.shape, "S1")
    del f[path]
    ds = f.create_dataset(path, data=data)
    for k, v in attrs.items():
        ds.attrs[k] = v


def _other_dtype(rng, data):
    data = np.asarray(data)
    if data.dtype.kind in "SUO":
        return rng.choice([np.zeros(data.shape), np.ones(data.shape, np.int32)]), "strings -> numbers"
    choices = [("numbers -> strings", lambda d: np.char.encode(np.char.mod("%s", d).astype(str), "ascii")
                if d.size else np.zeros(d.shape, "S4")),
               ("-> bool", lambda d: np.asarray(d != 0) if d.dtype.kind != "b" else d.astype(np.int8))]
    if data.dtype.kind == "f":
        choices.append(("float -> int32", lambda d: np.nan_to_num(d).astype(np.int32)))
    else:
        choices.append(("int -> float64", lambda d: d.astype(np.float64) + 0.5))
    label, fn = rng.choice(choices)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(data), label


def _other_shape(rng, data):
    data = np.asarray(data)
    options = ["add_axis", "scalar"]
    if data.ndim >= 1:
        options += ["drop_axis", "half", "empty", "flatten"]
    if data.ndim >= 2:
        options.append("swap")
    kind = rng.choice(options)
    if kind == "add_axis":
        out = data[..., None] if rng.random() < 0.5 else data[None, ...]
    elif kind == "scalar":
        out = data.reshape(-1)[0] if data.size else np.float64(0.0)
    elif kind == "drop_axis":
        out = data[..., 0] if data.shape[-1] else np.zeros(data.shape[:-1], data.dtype)
    elif kind == "half":
        axis = rng.randrange(data.ndim)
        out = np.take(data, range(data.shape[axis] // 2), axis=axis)
    elif kind == "empty":
        out = data[:0]
    elif kind == "flatten":
        out = data.reshape(-1)
    else:
        out = np.swapaxes(data, 0, data.ndim - 1)
    return np.asarray(out), "%s %s -> %s" % (kind, data.shape, np.shape(out))


def make_h5_mutant(rng, seed_path, out_base):
    """One mutant of the desync file seed_path, written next to out_base (a path without suffix)."""
    import h5py
    kind = _weighted(rng, H5_KINDS)
    name = os.path.basename(seed_path)
    if kind == "truncate":
        size = os.path.getsize(seed_path)
        k = rng.randrange(size)
        out = out_base + (".h5.tmp" if rng.random() < 1 / 3 else ".h5")
        with open(seed_path, "rb") as src, open(out, "wb") as dst:
            dst.write(src.read(k))
        return out, "%s: truncate to %d of %d bytes" % (name, k, size)
    out = out_base + ".h5"
    shutil.copyfile(seed_path, out)
    with h5py.File(out, "r+") as f:
        datasets, groups = _objects(f)
        if kind == "drop":
            path = rng.choice(datasets + groups)
            del f[path]
            return out, "%s: drop /%s" % (name, path)
        if kind == "replace":
            path = rng.choice(datasets + groups)
            was_group = path in groups
            del f[path]
            if was_group:
                f.create_dataset(path, data=np.int64(1))
            else:
                f.create_group(path)
            return out, "%s: replace %s /%s by a %s" % (name, "group" if was_group else "dataset", path,
                                                       "dataset" if was_group else "group")
        if kind == "attr_type":
            obj_path, attr = rng.choice(_attributes(f))
            obj = f[obj_path]
            value = obj.attrs[attr]
            arr = np.asarray(value)
            if arr.ndim > 0 and arr.size != 1:
                new = arr.reshape(-1)[0] if arr.size else np.int64(0)
                label = "array -> scalar"
            elif arr.dtype.kind in "SUO":
                new = np.int64(rng.choice([0, 1, 7, -1]))
                label = "string -> int"
            else:
                new = np.bytes_(rng.choice(["abc", "", "1.5e3x"]))
                label = "number -> string"
            obj.attrs[attr] = new
            return out, "%s: attribute %s of %s: %s" % (name, attr, obj_path, label)
        if kind in ("dtype", "shape"):
            path = rng.choice(datasets)
            data = f[path][()]
            new, label = (_other_dtype if kind == "dtype" else _other_shape)(rng, data)
            _rewrite(f, path, new)
            return out, "%s: /%s %s %s" % (name, path, kind, label)
        attr = rng.choice(sorted(f.attrs))
        del f.attrs[attr]
        return out, "%s: delete root attribute %s" % (name, attr)


def _json_paths(value, prefix=()):
    """Every (container path, key) of a JSON value, nested dicts and lists."""
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((prefix, k))
            out += _json_paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            out.append((prefix, i))
            out += _json_paths(v, prefix + (i,))
    return out


def make_json_mutant(rng, seed_path, out_base):
    """One mutant of the JSON file seed_path (a `desync plan --format json`)."""
    kind = rng.choice(JSON_KINDS)
    name = os.path.basename(seed_path)
    out = out_base + ".json"
    with open(seed_path, encoding="utf-8") as fh:
        text = fh.read()
    if kind == "truncate":
        k = rng.randrange(len(text))
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text[:k])
        return out, "%s: truncate to %d of %d characters" % (name, k, len(text))
    doc = json.loads(text)
    where, key = rng.choice(_json_paths(doc))
    parent = doc
    for k in where:
        parent = parent[k]
    if kind == "drop_key":
        del parent[key]
        label = "drop %s" % "/".join(str(x) for x in where + (key,))
    else:
        new = rng.choice(["text", -1, 1.5, None, [], {}, True])
        parent[key] = new
        label = "%s = %r" % ("/".join(str(x) for x in where + (key,)), new)
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)
    return out, "%s: %s" % (name, label)
