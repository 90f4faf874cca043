#!/usr/bin/env python3
"""Exports a lucid-wasm built-in classifier (model.json) to ONNX, with its input-mapping sidecar.

    python3 tools/onnx/make_model.py MODEL.json OUT.onnx

writes OUT.onnx (opset 13: per layer MatMul + Add, Relu between layers, Sigmoid at the end; input
"x" float32 [N, D], output "p" float32 [N, 1] = P(positive)) and OUT.onnx.json, the sidecar that
maps table columns to x exactly as the built-in preprocessor does (numerics first with
x·scale + offset, the min-max scaling to [−1, 1]; then one one-hot group per categorical feature).
So lucid's ONNX adapter on OUT.onnx predicts what the built-in model predicts.

Needs Debian's python3-onnx (apt-get install -y python3-onnx). Only the tools need Python; the
tests read the committed files. tools/onnx/make-fixtures.mjs runs this on test/fixtures/onnx/.
"""
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def scaling(group):
    """The built-in preprocessor's min-max map to [-1, 1] as x*scale + offset (same float64 ops)."""
    rng = group["max"] - group["min"]
    scale = 2 / (1 if rng == 0 else rng)
    return scale, -1 - group["min"] * scale


def sidecar(model):
    columns = []
    for g in model["preprocessor"]["groups"]:
        if g["kind"] == "numeric":
            scale, offset = scaling(g)
            columns.append({"name": g["name"], "type": "numeric", "scale": scale, "offset": offset})
        else:
            columns.append({"name": g["name"], "type": "onehot", "categories": g["categories"]})
    return {
        "format": "lucid-onnx-input",
        "version": 1,
        "input": "x",
        "output": "p",
        "dtype": "float32",
        "label": model["label"],
        "positive": model["positive"],
        "columns": columns,
    }


def graph(model):
    layers = model["layers"]
    nodes, inits = [], []
    h = "x"
    for i, layer in enumerate(layers):
        # the model file stores torch's (out, in) layout; MatMul wants (in, out)
        w = np.array(layer["weight"], dtype=np.float32).reshape(layer["out"], layer["in"]).T.copy()
        b = np.array(layer["bias"], dtype=np.float32)
        inits += [numpy_helper.from_array(w, f"l{i}.weight"), numpy_helper.from_array(b, f"l{i}.bias")]
        nodes.append(helper.make_node("MatMul", [h, f"l{i}.weight"], [f"l{i}.mm"], name=f"l{i}.matmul"))
        nodes.append(helper.make_node("Add", [f"l{i}.mm", f"l{i}.bias"], [f"l{i}.out"], name=f"l{i}.add"))
        h = f"l{i}.out"
        if i + 1 < len(layers):
            nodes.append(helper.make_node("Relu", [h], [f"l{i}.relu"], name=f"l{i}.relu"))
            h = f"l{i}.relu"
    nodes.append(helper.make_node("Sigmoid", [h], ["p"], name="sigmoid"))
    d = layers[0]["in"]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", d])
    p = helper.make_tensor_value_info("p", TensorProto.FLOAT, ["N", 1])
    return helper.make_graph(nodes, "lucid_classifier", [x], [p], inits)


def main(argv):
    if len(argv) != 3:
        sys.exit(f"usage: {argv[0]} MODEL.json OUT.onnx")
    with open(argv[1], encoding="utf-8") as f:
        model = json.load(f)
    if model.get("format") != "lucid-wasm/classifier":
        sys.exit(f"{argv[1]}: not a lucid-wasm built-in model")
    onnx_model = helper.make_model(
        graph(model),
        producer_name="lucid-wasm tools/onnx/make_model.py",
        opset_imports=[helper.make_opsetid("", 13)],
    )
    onnx_model.ir_version = 7  # readable by onnxruntime >= 1.6
    onnx.checker.check_model(onnx_model)
    onnx.save(onnx_model, argv[2])
    with open(argv[2] + ".json", "w", encoding="utf-8") as f:
        json.dump(sidecar(model), f, indent=2)
        f.write("\n")
    print(f"wrote {argv[2]} and {argv[2]}.json ({len(model['layers'])} layers, {model['layers'][0]['in']} inputs)")


if __name__ == "__main__":
    main(sys.argv)
