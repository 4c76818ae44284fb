/**
 * The ETag of each history page read, by principal (forgetting one principal's must not scan everyone's), so that
 * an unchanged page costs a 304 where the node's ETag is readable (in Node; the browser's HTTP cache does it there).
 */
export class PageValidators {
  private readonly etags = new Map<string, Map<string, string>>();

  /** The If-None-Match header for a page read before, if its answer carried an ETag. */
  conditional(principal: string, page: string): Record<string, string> {
    const etag = this.etags.get(principal)?.get(page);
    return etag ? { 'if-none-match': etag } : {};
  }

  remember(principal: string, page: string, response: Response): void {
    const etag = response.headers.get('etag');
    if (!etag) return;
    const pages = this.etags.get(principal);
    if (pages) pages.set(page, etag);
    else this.etags.set(principal, new Map([[page, etag]]));
  }

  forget(): void {
    this.etags.clear();
  }

  forgetOf(principal: string): void {
    this.etags.delete(principal);
  }
}
