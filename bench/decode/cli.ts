/**
 * Run the decode benchmark without the CLI: `node bench/decode/cli.ts [flags]` (what the GPU
 * machine runs; see inference/onnx/README.md).
 */
import { runDecodeBench } from './index.ts';

process.exitCode = await runDecodeBench({ argv: process.argv.slice(2) });
