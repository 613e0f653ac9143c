type CategoryTree = { id: string; name: string; subcategories: { id: string; name: string }[] }[];

/**
 * The `<option>`s of a category picker: each main category as a group holding itself and its
 * subcategories. `mainSuffix` tells a filter's "Face (all)" from a form's plain "Face".
 */
export function CategoryOptions({ categories, mainSuffix = "" }: { categories: CategoryTree; mainSuffix?: string }) {
  return categories.map((main) => (
    <optgroup key={main.id} label={main.name}>
      <option value={main.id}>
        {main.name}
        {mainSuffix}
      </option>
      {main.subcategories.map((sub) => (
        <option key={sub.id} value={sub.id}>
          {sub.name}
        </option>
      ))}
    </optgroup>
  ));
}
