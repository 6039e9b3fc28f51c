// The games the client draws, by the name the server gives them.
import doudizhu from "./doudizhu/index.js";
import president from "./president/index.js";
import dominoes from "./dominoes/index.js";
import tiengow from "./tiengow/index.js";

export const GAMES = { doudizhu, president, dominoes, tiengow };
