export type { PageImage, OcrPageResult, RecognizeOptions, OcrEngine } from './engine.ts';
export { OnnxSession, tensor, DEVICES } from './runtime/ort.ts';
export type { Device, SessionOptions, Tensor, TensorType } from './runtime/ort.ts';
