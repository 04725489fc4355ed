/* Hidden Number's pages (the tests' own rule set): the forms are plain HTML, so its entry only
   gives the parts every page has and reloads the page when the game moves on. */

import { everyPage } from "../../static/js/dom.js";
import { reloadOnNews } from "../../static/js/reload.js";

everyPage();
reloadOnNews(() => false);
