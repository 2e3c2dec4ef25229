// The header's menu on a narrow screen: one line (the site's name, "Your game" when there is
// one, and the Menu button), the other links behind the button, a disclosure that says whether
// it is open (aria-expanded) and closes with Escape. Without this script the links stay open.
(() => {
  const button = document.querySelector(".menu-button");
  const menu = document.getElementById("site-menu");
  if (!button || !menu) return;
  const header = button.closest(".site-header");
  header.classList.add("has-menu-button");
  button.hidden = false;

  const open = (shown) => {
    button.setAttribute("aria-expanded", shown ? "true" : "false");
    header.classList.toggle("menu-open", shown);
  };
  button.addEventListener("click", () => open(button.getAttribute("aria-expanded") !== "true"));
  header.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
      open(false);
      button.focus();
    }
  });
})();
