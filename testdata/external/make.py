"""Writes the ONNX external-data fixtures of this directory with onnx's own helpers.

Run with Debian's python3 (onnx 1.12): /usr/bin/python3 make.py

- model.onnx: x [2,3,4] -> Reshape(x, shape) -> y [4,6] -> MatMul(y, w) -> z [4,5]. The initializer
  "shape" (int64 [4,-1]) is stored externally in shape.bin at offset 16 after 16 bytes of padding;
  the weights "w" (float [6,5]) are stored externally in weights.bin, which is left out on purpose:
  checking the Reshape must read the shape constant and never the bulk weights.
- escape.onnx: the same graph whose "shape" lies in "../shape.bin", outside the model's directory.
- shape.pb: a TensorProto int64 [2] = [4,-1] whose values are in shape.bin (as model.onnx's).
"""
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto
from onnx.external_data_helper import set_external_data


def graph(shape_location):
    shape = numpy_helper.from_array(np.array([4, -1], dtype=np.int64), "shape")
    set_external_data(shape, location=shape_location, offset=16, length=16)
    shape.ClearField("raw_data")
    shape.data_location = TensorProto.EXTERNAL
    w = numpy_helper.from_array(np.zeros((6, 5), dtype=np.float32), "w")
    set_external_data(w, location="weights.bin", offset=0, length=120)
    w.ClearField("raw_data")
    w.data_location = TensorProto.EXTERNAL
    g = helper.make_graph(
        [helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape"),
         helper.make_node("MatMul", ["y", "w"], ["z"], name="matmul")],
        "external",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [4, 5])],
        initializer=[shape, w],
        value_info=[helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 6])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)], producer_name="reshape testdata")


with open("shape.bin", "wb") as f:
    f.write(b"\xff" * 16 + np.array([4, -1], dtype="<i8").tobytes())
onnx.save_model(graph("shape.bin"), "model.onnx")
onnx.save_model(graph("../shape.bin"), "escape.onnx")
t = numpy_helper.from_array(np.array([4, -1], dtype=np.int64), "shape")
set_external_data(t, location="shape.bin", offset=16, length=16)
t.ClearField("raw_data")
t.data_location = TensorProto.EXTERNAL
with open("shape.pb", "wb") as f:
    f.write(t.SerializeToString())
