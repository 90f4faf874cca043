# workerd configuration of the LUCID-GAN sampling worker. Paths are relative to this file, which
# tools/build-edge.mjs copies into dist-edge/ next to the bundle (worker.js), the plain SIMD kernels
# (kernels.wasm) and the model (model.lgan). Run: npx workerd serve dist-edge/config.capnp
# (listen elsewhere with --socket-addr http=127.0.0.1:9000).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "lucid", worker = .lucidWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "lucid") ],
);

const lucidWorker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    # workerd forbids compiling wasm from bytes at run time: the kernels are a declared wasm module.
    (name = "kernels.wasm", wasm = embed "kernels.wasm"),
    (name = "model.lgan", text = embed "model.lgan"),
  ],
  compatibilityDate = "2025-01-01",
);
