/* Hidden Number's pages (the tests' own rule set): the forms are plain HTML, so its entry only
   gives the parts every page has, its clocks, and reloads the page when the game moves on. */

import { startClocks } from "../../static/js/clock.js";
import { everyPage } from "../../static/js/dom.js";
import { redrawOnNews } from "../../static/js/poll.js";

everyPage();
startClocks();
redrawOnNews();
