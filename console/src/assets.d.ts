// Vite's `?url` imports: the address of a file of the build (laz-perf's WebAssembly).
declare module '*?url' {
  const url: string;
  export default url;
}
