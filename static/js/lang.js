// The language switcher: remembered in a cookie (and asked for on reload with ?lang=).
const select = document.getElementById("lang-select");
if (select) {
  select.addEventListener("change", () => {
    document.cookie = `lang=${encodeURIComponent(select.value)}; path=/; max-age=31536000; samesite=lax`;
    const url = new URL(window.location.href);
    url.searchParams.set("lang", select.value);
    window.location.replace(url.toString());
  });
}
