/**
 * Runs async work one call at a time, in call order. A call made while none runs starts at once
 * (so that closing the engine right after waits for it); a failed run does not stop later ones.
 */
export class Serial {
  private tail: Promise<void> | undefined;

  run(work: () => Promise<void>): Promise<void> {
    const run = this.tail ? this.tail.then(work) : work();
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.tail = settled;
    void settled.then(() => {
      if (this.tail === settled) this.tail = undefined;
    });
    return run;
  }
}
