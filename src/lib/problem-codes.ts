/** The shared problem codes any route can answer; route-specific codes are listed on their routes. */
export const PROBLEM_CODES = [
  { code: 'invalid_request', status: 400, meaning: 'The body does not match the request schema; `errors[]` names each offending field.' },
  { code: 'empty_body', status: 400, meaning: 'A POST arrived without a body.' },
  { code: 'invalid_json', status: 400, meaning: 'The body is not valid JSON.' },
  { code: 'invalid_utf8', status: 400, meaning: 'The body is not valid UTF-8.' },
  { code: 'too_deeply_nested', status: 400, meaning: 'The body nests arrays or objects deeper than 32 levels.' },
  { code: 'invalid_url', status: 400, meaning: 'The request target is not a valid URL.' },
  { code: 'not_found', status: 404, meaning: 'No endpoint at this path.' },
  { code: 'unknown_alias', status: 404, meaning: 'No such short alias on the agent hub host.' },
  { code: 'method_not_allowed', status: 405, meaning: 'The path exists but not for this method; `Allow` lists the methods.' },
  { code: 'payload_too_large', status: 413, meaning: 'The body exceeds the documented limit (64 KiB).' },
  { code: 'unsupported_media_type', status: 415, meaning: 'The body was not sent as application/json.' },
  { code: 'internal_error', status: 500, meaning: 'A bug: the request was logged; nothing was half-written.' },
  { code: 'not_implemented', status: 501, meaning: 'The route is documented in the contract but not implemented by this release.' },
] as const;
