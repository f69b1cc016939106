/**
 * The endpoint list that the discovery descriptor and the capability manifest both publish, derived
 * from the route table so it can never miss a route.
 */
import { schemaUrl, siteUrl } from '../config/site.ts';
import { bodySchemaOf, entryUrl } from '../catalogue/lookup.ts';
import { catalogue } from '../catalogue/index.ts';


export function endpointEntries() {
  return catalogue().map((route) => {
    const published = bodySchemaOf(route);
    return {
      id: route.id,
      method: route.method,
      url: entryUrl(route),
      summary: route.summary,
      host: route.host ?? ('site' as const),
      delivery: route.kind === 'static' ? ('static' as const) : ('runtime' as const),
      ...(published ? { schema: schemaUrl(published.file) } : {}),
      ...(route.page ? { page: siteUrl(route.page) } : {}),
    };
  });
}
