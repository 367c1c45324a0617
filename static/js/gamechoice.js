// A create form's game choice: the seats it offers are the chosen game's, so each seat choice
// names and sends that game's seat (elements with data-watergate / data-nations hold both).
export function followGame(form, choice) {
  const show = () => {
    const game = new FormData(form).get("game") || "watergate";
    for (const node of form.querySelectorAll("[data-nations]")) {
      if (node.tagName === "INPUT") node.value = node.dataset[game];
      else node.textContent = node.dataset[game];
    }
  };
  choice.addEventListener("change", show);
  show();
}
