// Runs inside a temporary project that installed the packed tarball: the onnx engine with its
// default model, which comes from the separate model package. Reports the error code when the
// model is missing, or the model it loaded.
import { createEngine, defaultOnnxModelDir } from '@folio-ocr/folio/engines';

try {
  const engine = await createEngine('onnx');
  await engine.close();
  process.stdout.write(JSON.stringify({ loaded: defaultOnnxModelDir() }));
} catch (error) {
  process.stdout.write(JSON.stringify({ code: error.code, message: error.message }));
}
