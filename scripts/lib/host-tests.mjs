// The host `cargo test` runs of `npm test` (and the builds `npm run fuzz` reruns targets of): each
// package with the features it ships with. docs-edge-core gets Mermaid's renderer (`diagrams`), which
// the builder script compiles in, on top of its default features (`utilities`, as the builder, and
// `embedded-static`, the host's stylesheets): without it the diagram tests and the diagram fuzz
// target are not compiled and the renderer fuzz target shows Mermaid blocks as code. docs-edge-serve
// and the SDK build docs-edge-core without it, so they run apart (one run with both would compile
// merman into them too). The second run also builds docs-edge-serve's binary, which the integration
// tests start.
// Measured on the shared 2-core machine: the first build with merman, 19 min 52 s wall at 52% CPU
// (602 s of user CPU), merman's 54 crates 56% of the summed compile times, this crate's library
// (compiled with and without the feature now) 17%; a warm run of the crate's tests 63.9 s of CPU
// against 61.8 without (its diagram tests, the fixture's diagrams drawn, the diagram fuzz target).

const FEATURES = { 'docs-edge-core': ['diagrams'] };

/** The run that builds docs-edge-serve's binary (its integration test needs it). */
export const SERVE_TEST_RUN = ['docs-edge-sdk', 'docs-edge-serve'];

export const HOST_TEST_RUNS = [['docs-edge-core'], SERVE_TEST_RUN];

/** `-p` and `--features` arguments of cargo for `packages`, tested together. */
export function cargoPackages(packages) {
  const features = packages.flatMap((pkg) => (FEATURES[pkg] ?? []).map((feature) => `${pkg}/${feature}`));
  return [...packages.flatMap((pkg) => ['-p', pkg]), ...(features.length ? ['--features', features.join(',')] : [])];
}
