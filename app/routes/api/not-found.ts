// Unknown /api paths answer JSON, not the HTML 404 screen.
const notFound = () => Response.json({ message: "Not found" }, { status: 404 });
export const loader = notFound;
export const action = notFound;
