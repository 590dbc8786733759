/* global location, localStorage, sessionStorage, document, window, fetch, Image */
// Runs before the first paint (index.html): shows the prerendered first screen of this address, if there is one, and
// starts fetching the data the page asks for first. Signed-in users see a different header and send their token,
// and a search in a directory's address fills its box: those wait for React.
(function () {
  var path = location.pathname;
  try {
    if (localStorage.getItem('user') || sessionStorage.getItem('user')) return;
    if (localStorage.getItem('token') || sessionStorage.getItem('token')) return;
  } catch {
    return; // storage off limits: nothing early
  }

  // The list or post the page asks for first, fetched alongside the page's code: src/shared/api.ts takes this answer
  // (window.__pawhavenEarly) instead of asking again. The addresses are the ones the pages ask for.
  var post = /^\/posts\/([^/]+)$/.exec(path);
  var early =
    path === '/posts'
      ? '/api/posts?page=1&limit=10'
      : path === '/adoption' && !location.search
        ? '/api/adoptions?filter=all&page=1&limit=12'
        : post
          ? '/api/posts/' + post[1]
          : null;
  if (early && window.fetch) {
    var response = fetch(early, { headers: { Accept: 'application/json' }, credentials: 'include' });
    window.__pawhavenEarly = { url: early, response: response };
    // A post's picture is its page's largest paint: it starts loading as soon as its address is known.
    if (path !== '/adoption')
      response
        .then(function (res) {
          return res.ok ? res.clone().json() : null;
        })
        .then(function (body) {
          var first = Array.isArray(body) ? body[0] : body;
          if (first && typeof first.imageUrl === 'string' && first.imageUrl.charAt(0) === '/') {
            var picture = new Image();
            picture.fetchPriority = 'high';
            picture.src = first.imageUrl;
          }
        })
        .catch(function () {});
  }

  var pages = {
    '/': 'home',
    '/ngo': 'ngo',
    '/clinics': 'clinics',
    '/faq': 'faq',
    '/team': 'team',
    '/contactus': 'contactus',
  };
  var page = pages[path];
  if (!page || ((page === 'ngo' || page === 'clinics') && location.search)) return;
  document.documentElement.setAttribute('data-prerender', page);
})();
