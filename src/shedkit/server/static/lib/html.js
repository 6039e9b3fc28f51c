// The one place the client takes its view library from: Preact with htm's tagged templates.
// Components are plain functions of their props: html`<${Seat} seat=${s} />`.
import { h, render, Fragment, createContext } from "preact";
import htm from "htm";

export { render, Fragment, createContext, h };
export { useState, useEffect, useRef, useMemo, useCallback, useContext, useLayoutEffect } from "preact/hooks";
export const html = htm.bind(h);
