/**
 * `exactList<U>()([...])` returns its list unchanged and fails to compile when the list leaves out
 * a member of U, so a value the OpenAPI document adds to an enum cannot be forgotten here.
 */
export function exactList<U extends string>() {
  return <const L extends readonly U[]>(list: L & ([U] extends [L[number]] ? unknown : { missing: Exclude<U, L[number]> })): L =>
    list;
}
