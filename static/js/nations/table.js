// Nations' table page (live, spectated, replayed, the admin's): the shared table shell
// (../table/shell.js) runs the session, Nations' board draws it. (Static imports, so the page
// announces every module at once.)
import { runTable } from "../table/shell.js";
import * as board from "./board.js";

runTable(document.querySelector("[data-table]"), board);
