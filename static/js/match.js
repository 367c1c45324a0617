// Watergate's table page: the shared table shell (table/shell.js) runs the session, Watergate's
// board draws it. (Static imports, so the page announces every module at once.)
import { runTable } from "./table/shell.js";
import * as board from "./watergate/board.js";

runTable(document.querySelector("[data-table]"), board);
