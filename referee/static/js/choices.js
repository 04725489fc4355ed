/* The fields a form has only for some games (data-games lists the rule sets by name): shown for the
   game its select (data-game-choice) names, and left out of the form otherwise (disabled, so
   not sent); a shape of sides (an option's data-players) only under its number of players.
   A part of the page elsewhere follows a select too (data-follows="<the select's id>").
   Without this script every field shows, named with its games, and the server reads only the
   chosen game's: the page works either way. */

const showOnly = (part, on) => {
  part.hidden = !on;
  for (const input of part.querySelectorAll("input, select, textarea")) input.disabled = !on;
};

/** Offer only the shapes of sides for the number of players chosen (R23). */
function followPlayers(form) {
  const players = form.querySelector("select[data-players-choice]");
  if (!players) return;
  for (const option of form.querySelectorAll("option[data-players]")) {
    const on = option.dataset.players === players.value;
    option.hidden = !on;
    option.disabled = !on;
    if (!on && option.selected) option.closest("select").value = "";
  }
  for (const group of form.querySelectorAll("optgroup")) {
    group.hidden = !group.querySelector("option:not([disabled])");
  }
}

export function followGameChoices(root = document) {
  for (const choice of root.querySelectorAll("select[data-game-choice]")) {
    const form = choice.form;
    const apply = () => {
      for (const part of form.querySelectorAll("[data-games]")) {
        showOnly(part, part.dataset.games.split(" ").includes(choice.value));
      }
      if (choice.id) {
        for (const part of document.querySelectorAll(`[data-follows="${choice.id}"]`)) {
          part.hidden = part.dataset.game !== choice.value;
        }
      }
      followPlayers(form);
    };
    form.classList.add("follows-game"); // the "(... only)" notes are needed no more
    choice.addEventListener("change", apply);
    form.querySelector("select[data-players-choice]")?.addEventListener("change", apply);
    apply();
  }
}
