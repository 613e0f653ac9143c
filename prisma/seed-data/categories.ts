import type { MediaLook } from "./demo-media.ts";

export type SubcategorySeed = { name: string; slug: string; description: string; yearlyPrice: number };
export type MainCategorySeed = {
  name: string;
  slug: MediaLook;
  description: string;
  sortOrder: number;
  subcategories: SubcategorySeed[];
};

// Five main specialties (no price of their own) with priced subcategories: a category licence
// is bought per subcategory.
export const CATEGORIES: MainCategorySeed[] = [
  {
    name: "Plastic Surgery",
    slug: "plastic-surgery",
    sortOrder: 1,
    description: "Reconstructive and aesthetic procedures explained step by step, so patients arrive at their consultation knowing what to ask.",
    subcategories: [
      {
        name: "Rhinoplasty",
        slug: "rhinoplasty",
        yearlyPrice: 249,
        description: "Open and closed nose reshaping, septoplasty and revision surgery, from incision to final result.",
      },
      {
        name: "Breast Surgery",
        slug: "breast-surgery",
        yearlyPrice: 299,
        description: "Augmentation, lift, reduction and reconstruction after mastectomy, with implant and tissue options.",
      },
      {
        name: "Facial Rejuvenation",
        slug: "facial-rejuvenation",
        yearlyPrice: 349,
        description: "Facelift, eyelid surgery, brow lift and injectables: how each one changes the anatomy of an ageing face.",
      },
      {
        name: "Body Contouring",
        slug: "body-contouring",
        yearlyPrice: 199,
        description: "Liposuction, abdominoplasty and post-weight-loss surgery shown layer by layer.",
      },
    ],
  },
  {
    name: "Dermatology",
    slug: "dermatology",
    sortOrder: 2,
    description: "Skin conditions and their treatments, from everyday acne to skin cancer surgery, drawn at the scale of the cells involved.",
    subcategories: [
      {
        name: "Acne Treatment",
        slug: "acne-treatment",
        yearlyPrice: 199,
        description: "How acne forms inside the follicle and how topical, oral and procedural treatments interrupt it.",
      },
      {
        name: "Skin Cancer",
        slug: "skin-cancer",
        yearlyPrice: 249,
        description: "Melanoma and non-melanoma skin cancers: warning signs, biopsy and Mohs surgery.",
      },
      {
        name: "Laser Dermatology",
        slug: "laser-dermatology",
        yearlyPrice: 299,
        description: "Resurfacing, vascular and pigment lasers: what the light does in the skin and how it heals.",
      },
    ],
  },
  {
    name: "Cardiology",
    slug: "cardiology",
    sortOrder: 3,
    description: "The heart and its vessels in motion: blockages, valves and rhythm problems, and the procedures that treat them.",
    subcategories: [
      {
        name: "Interventional Cardiology",
        slug: "interventional-cardiology",
        yearlyPrice: 349,
        description: "Catheter-based procedures through the wrist or groin: angiography, angioplasty and stenting.",
      },
      {
        name: "Heart Valve Surgery",
        slug: "heart-valve-surgery",
        yearlyPrice: 299,
        description: "Valve repair and replacement, open and transcatheter, for stenosis and regurgitation.",
      },
      {
        name: "Cardiac Rhythm Management",
        slug: "cardiac-rhythm-management",
        yearlyPrice: 249,
        description: "Pacemakers, defibrillators and ablation for heart rhythms that are too slow, too fast or irregular.",
      },
    ],
  },
  {
    name: "Orthopedics",
    slug: "orthopedics",
    sortOrder: 4,
    description: "Bones, joints and the tissues that move them: injuries, wear and tear, and the operations that restore movement.",
    subcategories: [
      {
        name: "Joint Replacement",
        slug: "joint-replacement",
        yearlyPrice: 299,
        description: "Hip, knee and shoulder replacement: implants, surgical approaches and rehabilitation.",
      },
      {
        name: "Sports Medicine",
        slug: "sports-medicine",
        yearlyPrice: 249,
        description: "Ligament, tendon and cartilage injuries of active people, and arthroscopic repair.",
      },
      {
        name: "Spine Surgery",
        slug: "spine-surgery",
        yearlyPrice: 349,
        description: "Disc herniation, stenosis and instability, treated by decompression and fusion.",
      },
    ],
  },
  {
    name: "Neurology",
    slug: "neurology",
    sortOrder: 5,
    description: "The brain and nerves explained clearly: stroke, tumours, seizures and movement disorders, and how they are treated.",
    subcategories: [
      {
        name: "Stroke Care",
        slug: "stroke-care",
        yearlyPrice: 249,
        description: "Ischaemic and haemorrhagic stroke, clot-busting drugs, thrombectomy and prevention.",
      },
      {
        name: "Brain Surgery",
        slug: "brain-surgery",
        yearlyPrice: 349,
        description: "Craniotomy, tumour removal and aneurysm treatment, with the anatomy a patient needs to follow.",
      },
      {
        name: "Movement Disorders",
        slug: "movement-disorders",
        yearlyPrice: 199,
        description: "Parkinson's disease and essential tremor, from the basal ganglia to deep brain stimulation.",
      },
    ],
  },
];
