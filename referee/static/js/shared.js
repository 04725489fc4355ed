/* The one entry of the pages every game shares (home, joining, a recovered seat, the host's
   page, the club, an error): the parts every page has, and on the host's page its clocks and
   the game followed (poll.js), which redraws the page when the game moves on. A game's own
   pages load their rule set's entry instead. */
import { followGameChoices } from "./choices.js";
import { startClocks } from "./clock.js";
import { everyPage } from "./dom.js";
import { redrawOnNews, refresh } from "./poll.js";
import { hintScrolls } from "./scrollhint.js";

function init() {
  startClocks();
  everyPage();
  followGameChoices();
  hintScrolls();
}

init();
redrawOnNews({ redraw: () => refresh(init) });
