/** A one-line progress display on a TTY; silent otherwise, so logs and pipes stay clean. */
export class Progress {
  readonly #stream: NodeJS.WriteStream;
  readonly #enabled: boolean;
  readonly #started = performance.now();
  #documents = 0;
  #pages = 0;
  #last = 0;
  #current = '';

  constructor(stream: NodeJS.WriteStream = process.stderr) {
    this.#stream = stream;
    this.#enabled = Boolean(stream.isTTY) && !process.env.CI;
  }

  page(source: string): void {
    this.#pages++;
    this.#current = source;
    this.#draw();
  }

  document(): void {
    this.#documents++;
    this.#draw(true);
  }

  done(): void {
    if (this.#enabled) this.#stream.write('\r\x1b[K');
  }

  #draw(force = false): void {
    if (!this.#enabled) return;
    const now = performance.now();
    if (!force && now - this.#last < 100) return;
    this.#last = now;
    const seconds = (now - this.#started) / 1000;
    const rate = seconds > 0 ? (this.#pages / seconds).toFixed(1) : '0';
    const name = this.#current.split('/').pop() ?? '';
    const line = `folio: ${this.#documents} documents, ${this.#pages} pages, ${rate} pages/s  ${name}`;
    const width = this.#stream.columns ?? 80;
    this.#stream.write(`\r\x1b[K${line.slice(0, width - 1)}`);
  }
}
