// The browser's time zone, kept in a cookie for the server (accounts/time_zones.py), which then
// writes every page's times in it: the next page after this one, and every page after.
(function () {
  "use strict";
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return; // no Intl: times stay in UTC, and say so
  }
  // An IANA name ("Europe/Berlin", "America/Argentina/Buenos_Aires") goes in a cookie as it is.
  if (!/^[A-Za-z0-9_+\-/]+$/.test(zone)) return;
  const cookie = "hearts_time_zone";
  if (document.cookie.split("; ").includes(`${cookie}=${zone}`)) return;
  const year = 365 * 24 * 3600;
  document.cookie = `${cookie}=${zone}; path=/; max-age=${year}; samesite=lax`;
})();
