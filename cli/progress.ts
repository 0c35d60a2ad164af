/** Progress on stderr: a redrawn bar on a terminal, plain lines otherwise (logs, CI, pipes). */

export class Progress {
  private done = 0;
  private failed = 0;
  private readonly tty: boolean;

  constructor(
    private readonly total: number,
    private readonly label: string,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {
    this.tty = Boolean(out.isTTY);
  }

  /** A finished item; `error` marks it failed. */
  tick(item: string, error?: string): void {
    this.done++;
    if (error) this.failed++;
    if (this.tty) {
      if (error) this.line(`failed ${item}: ${error}`);
      this.bar();
    } else {
      this.out.write(`[${this.done}/${this.total}] ${error ? `failed ${item}: ${error}` : `${this.label} ${item}`}\n`);
    }
  }

  /** A message that must stay visible (waits, warnings). */
  note(message: string): void {
    if (this.tty) {
      this.line(message);
      this.bar();
    } else this.out.write(`${message}\n`);
  }

  finish(): void {
    if (this.tty) this.out.write('\n');
  }

  private line(message: string): void {
    this.out.write(`\r\x1b[2K${message}\n`);
  }

  private bar(): void {
    const width = 30;
    const filled = this.total === 0 ? width : Math.round((this.done / this.total) * width);
    const failed = this.failed ? ` ${this.failed} failed` : '';
    this.out.write(`\r\x1b[2K${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.done}/${this.total}${failed}`);
  }
}
