/** Page changes without a reload: main.ts registers how to draw the current address. */
let draw: () => void = () => {};

export function onNavigate(render: () => void): void {
  draw = render;
}

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  draw();
}
