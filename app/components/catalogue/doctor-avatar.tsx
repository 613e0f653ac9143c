import { ResponsiveImage } from "../ui/responsive-image.tsx";

const SIZES = { sm: "h-12 w-12", lg: "h-32 w-32 text-5xl" } as const;
/** Each size's photo widths (1× and 2× screens) and its display width. */
const PHOTO = { sm: { widths: [96, 160], sizes: "48px" }, lg: { widths: [160, 320], sizes: "128px" } } as const;

/** The doctor's photo, or the initial of their name (without "Dr.") on a tinted disc. */
export function DoctorAvatar({ doctor, size = "sm", alt = "" }: { doctor: { name: string; photo: string | null }; size?: keyof typeof SIZES; alt?: string }) {
  if (doctor.photo) {
    return (
      <ResponsiveImage
        src={doctor.photo}
        aspect="1x1"
        widths={PHOTO[size].widths}
        sizes={PHOTO[size].sizes}
        alt={alt}
        priority={size === "lg"}
        className={`${SIZES[size]} flex-none rounded-full object-cover`}
      />
    );
  }
  return (
    <span aria-hidden="true" className={`${SIZES[size]} flex flex-none items-center justify-center rounded-full bg-brand-100 font-bold text-brand-700`}>
      {doctor.name
        .replace(/^Dr\.?\s+/i, "")
        .slice(0, 1)
        .toUpperCase()}
    </span>
  );
}
