/* The one entry of the pages every game shares (home, joining, a recovered seat, the host's
   page, the club, an error): the parts every page has, and on the host's page its clocks and
   the game's status, polled, which redraws the page when the game moves on. A game's own
   pages load their rule set's entry instead. */
import { everyPage } from "./dom.js";
import { clocks, poll } from "./poll.js";

function start() {
  /* busy: is something under way on the page (never, on these pages); ticking: the clocks'
     timers */
  const session = { busy: null, ticking: [] };
  const init = () => {
    clocks(session);
    everyPage();
  };
  init();
  poll(session, init);
}

start();
