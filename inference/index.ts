/**
 * Everything that runs a model: OCR engines (paddle, onnx with FastMTP speculative decoding,
 * remote OpenAI-compatible servers, Jina Reader), embeddings, and the one module
 * that imports onnxruntime-node.
 */

// First: on a Node older than the package supports, this fails at once naming both versions.
import '../core/require-node.ts';

export type { EngineOptions, OcrEngineName } from './create-engine.ts';
export { createEngine, OCR_ENGINES } from './create-engine.ts';
export { defaultOnnxModelDir, ONNX_MODEL_PACKAGE } from './default-model.ts';
export type { Embedder } from './embed/index.ts';
export { createLocalEmbedder, createRemoteEmbedder } from './embed/index.ts';
export type { OcrEngine, OcrPageResult, PageImage, RecognizeOptions } from './engine.ts';
export { createOnnxEngine, decode, decodeStream, loadModel } from './onnx/index.ts';
export { createPaddleEngine } from './paddle/index.ts';
export { createReaderEngine, createRemoteEngine, DEFAULT_OCR_PROMPT } from './remote/index.ts';
export type { Device, SessionOptions, Tensor, TensorType } from './runtime/ort.ts';
export { DEVICES, OnnxSession, tensor } from './runtime/ort.ts';
