/**
 * The one way an inspection says "this input is not the object you claimed": a stable reason code
 * and a sentence written here, never a parser's own message (those name internal types and change
 * between library versions). The HTTP layer turns it into a 400 `invalid_input` naming the field.
 */
export class InspectionInputError extends Error {
  /** lower_snake reason, e.g. `truncated_bytes`, `not_json`, `receipt_id_not_bundle`. */
  readonly reason: string;
  /** The request field at fault: always `input` today, since the request schema judges `encoding`. */
  readonly field: 'input';

  constructor(reason: string, message: string) {
    super(message);
    this.name = 'InspectionInputError';
    this.reason = reason;
    this.field = 'input';
  }
}
