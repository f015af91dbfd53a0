// Which kernel this build is: MODELS true, the full kernel (Vicsek, Couzin, topological k-NN and
// their Philox noise); false, the core kernel (Reynolds, metric neighbours), where every model
// path folds away and the optimiser drops its code. wasm/build.mjs compiles the sources twice,
// once with this file as it is and once with MODELS false; the host loads the core kernel unless
// the parameters need the full one (src/backends/wasm/select.ts, kernelVariantFor).
export const MODELS: bool = true;
