// The worker's non-JS modules, as workerd hands them over (see config.capnp).
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
declare module '*.lgan' {
  const text: string;
  export default text;
}
