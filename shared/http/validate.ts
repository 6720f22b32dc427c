import type * as z from '../schema.ts';
import { ValidationError, type FieldProblem } from '../errors.ts';

type Part = 'path' | 'query' | 'body';

function problems(part: Part, error: z.core.$ZodError): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    const base = [part, ...issue.path.map(String)].join('.');
    // Name each unknown field on its own line, so the client sees exactly what to drop.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: `${base}.${key}`, message: 'Unknown field.' }));
    }
    return [{ path: base, message: issue.message }];
  });
}

/** Parses one part of the request, or throws a 400 listing every field problem. */
export function parsePart<T extends z.ZodMiniType>(part: Part, schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = problems(part, result.error);
  // The sentence names the first few; the answer lists up to MAX_LISTED_ERRORS (problem-details.ts).
  const named = errors
    .slice(0, 5)
    .map((e) => `${e.path}: ${e.message}`)
    .join('; ');
  const more = errors.length > 5 ? ` (and ${errors.length - 5} more)` : '';
  throw new ValidationError(`The request ${part} is invalid: ${named}${more}`, errors);
}
