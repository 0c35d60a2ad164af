/** Thrown when a grade request lacks what grading needs; routes map it to 422 with `loc`. */
export class GradingInputError extends Error {
  constructor(
    public loc: (string | number)[],
    message: string,
  ) {
    super(message);
    this.name = 'GradingInputError';
  }
}
