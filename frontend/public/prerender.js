/* global location, localStorage, sessionStorage, document */
// Runs before the first paint (index.html): shows the prerendered first screen of this address, if there is one.
// Signed-in users see a different header, and a search in the address fills the box: those wait for React.
(function () {
  var pages = { '/': 'home', '/ngo': 'ngo', '/clinics': 'clinics' };
  var page = pages[location.pathname];
  if (!page || (page !== 'home' && location.search)) return;
  try {
    if (localStorage.getItem('user') || sessionStorage.getItem('user')) return;
    if (localStorage.getItem('token') || sessionStorage.getItem('token')) return;
  } catch {
    return; // storage off limits: no prerender
  }
  document.documentElement.setAttribute('data-prerender', page);
})();
