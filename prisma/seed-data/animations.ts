export type AnimationSeed = {
  title: string;
  /** Subcategory slug. */
  category: string;
  description: string;
  /** Seconds (45–420). */
  duration: number;
  price?: number;
  views: number;
  /** How long ago it was published: spreads createdAt over the last months. */
  ageDays: number;
  /** Doctor slugs. The first, a doctor of the animation's specialty, is its medical reviewer. */
  doctors: string[];
  isActive?: false;
};

/**
 * The slug rule for admin-created animations: lowercased,
 * punctuation removed, spaces and hyphens turned into underscores.
 */
export function animationSlug(title: string) {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, "")
    .trim()
    .replace(/[\s-]+/g, "_");
}

// Paragraphs are separated by a blank line. A short capitalised line of letters only is shown
// as a heading on the detail page (at most 50 characters), so some descriptions use one.
const text = (...blocks: string[]) => blocks.join("\n\n");
const section = (heading: string, paragraph: string) => `${heading}\n${paragraph}`;

export const ANIMATIONS: AnimationSeed[] = [
  // Plastic Surgery › Rhinoplasty
  {
    title: "Open Rhinoplasty: Reshaping the Nasal Framework",
    category: "rhinoplasty",
    duration: 214,
    views: 4820,
    ageDays: 171,
    doctors: ["sarah-mitchell"],
    description: text(
      "Open rhinoplasty gives the surgeon a direct view of the cartilage and bone that shape the nose. This animation follows the operation from the small incision across the columella to the final splint.",
      section(
        "How The Procedure Works",
        "The skin is lifted off the nasal framework, a hump is reduced with a rasp or osteotome, and the tip cartilages are trimmed and stitched into a new shape. Cartilage grafts, often taken from the septum, support areas that need strength.",
      ),
      section(
        "Recovery And Results",
        "Most swelling settles within two to three weeks, but the final refinement of the tip can take a year. The animation shows why: the skin slowly re-drapes over the new framework.",
      ),
    ),
  },
  {
    title: "Septoplasty for a Deviated Septum",
    category: "rhinoplasty",
    duration: 142,
    views: 2310,
    ageDays: 120,
    doctors: ["sarah-mitchell"],
    description: text(
      "A deviated septum narrows one side of the nose and makes breathing through it difficult. Septoplasty straightens the wall between the two nasal passages without changing how the nose looks from the outside.",
      "Working entirely inside the nostril, the surgeon lifts the lining, removes or repositions the bent cartilage and bone, and lays the lining back in place. Soft splints may hold everything straight for a week.",
      "Patients usually go home the same day and notice easier breathing once the swelling inside the nose has settled.",
    ),
  },
  {
    title: "Closed Rhinoplasty and Tip Refinement",
    category: "rhinoplasty",
    duration: 176,
    price: 249,
    views: 980,
    ageDays: 44,
    doctors: ["sarah-mitchell"],
    description: text(
      "In closed rhinoplasty every incision is hidden inside the nostrils. It suits patients who need a modest change to the bridge or a more defined tip.",
      section(
        "What Changes",
        "The animation shows how the lower lateral cartilages are sculpted through the nostril and how small sutures narrow a broad tip without leaving an external scar.",
      ),
    ),
  },
  // Plastic Surgery › Breast Surgery
  {
    title: "Breast Augmentation with Implants",
    category: "breast-surgery",
    duration: 248,
    views: 7645,
    ageDays: 205,
    doctors: ["sarah-mitchell"],
    description: text(
      "Breast augmentation places a silicone or saline implant behind the breast tissue or behind the chest muscle. The choice of pocket, incision and implant size is made together with the surgeon before the operation.",
      section(
        "How The Procedure Works",
        "Through an incision in the fold under the breast, around the areola or in the armpit, the surgeon creates a precise pocket, checks the shape with a sizer and places the final implant.",
      ),
      section(
        "Recovery",
        "Tightness and swelling are strongest in the first days. The animation explains why the implants sit high at first and settle over the following weeks.",
      ),
    ),
  },
  {
    title: "Breast Reconstruction After Mastectomy",
    category: "breast-surgery",
    duration: 318,
    views: 3120,
    ageDays: 97,
    doctors: ["sarah-mitchell"],
    description: text(
      "Reconstruction can begin at the time of mastectomy or months later. This animation compares the two main paths: implant-based reconstruction with a tissue expander, and reconstruction with the patient's own tissue from the abdomen.",
      "In a DIEP flap, skin and fat are moved from the lower abdomen together with their blood vessels, which are joined to vessels in the chest under a microscope. The abdominal muscle is left in place.",
      "Later steps, such as nipple reconstruction and symmetry surgery on the other breast, are shown at the end.",
    ),
  },
  // Plastic Surgery › Facial Rejuvenation
  {
    title: "Deep Plane Facelift",
    category: "facial-rejuvenation",
    duration: 296,
    price: 349,
    views: 5210,
    ageDays: 150,
    doctors: ["sarah-mitchell"],
    description: text(
      "A deep plane facelift repositions the muscle and fat layer of the face rather than simply tightening the skin, which gives a natural result that lasts.",
      section(
        "How The Procedure Works",
        "Through an incision that follows the front of the ear, the surgeon releases the retaining ligaments beneath the SMAS layer and lifts the cheek and jowl tissue as one unit.",
      ),
      section("What To Expect", "Bruising fades over two weeks. Numbness in front of the ear is common and slowly returns to normal over several months."),
    ),
  },
  {
    title: "Upper and Lower Blepharoplasty",
    category: "facial-rejuvenation",
    duration: 163,
    views: 2740,
    ageDays: 66,
    doctors: ["sarah-mitchell"],
    description: text(
      "Eyelid surgery removes excess skin from the upper lids and repositions the fat that creates bags under the eyes.",
      "Upper lid incisions are hidden in the natural crease; the lower lids are reached through the inside of the lid or just below the lashes. The animation shows both approaches and how fine stitches are removed after five days.",
    ),
  },
  // Plastic Surgery › Body Contouring
  {
    title: "Tumescent Liposuction",
    category: "body-contouring",
    duration: 188,
    views: 6030,
    ageDays: 188,
    doctors: ["sarah-mitchell"],
    description: text(
      "Liposuction removes stubborn fat deposits through small cannulas. It shapes the body; it is not a treatment for weight loss.",
      section(
        "How The Procedure Works",
        "A dilute solution of local anaesthetic and adrenaline is infused first to numb the area and reduce bleeding. The cannula then moves in a fan pattern to remove fat evenly.",
      ),
      "Compression garments help the skin adapt to the new contour during the first six weeks.",
    ),
  },
  {
    title: "Abdominoplasty with Muscle Repair",
    category: "body-contouring",
    duration: 254,
    price: 349,
    views: 1875,
    ageDays: 82,
    doctors: ["sarah-mitchell"],
    description: text(
      "After pregnancy or major weight loss the abdominal muscles can separate and the skin can lose its elasticity. A tummy tuck repairs both.",
      "The animation shows the low incision, the stitching together of the rectus muscles, the removal of loose skin and the creation of a new opening for the navel.",
      "Patients walk slightly bent forward for the first week while the repair heals.",
    ),
  },
  // Dermatology › Acne Treatment
  {
    title: "How Acne Forms Inside the Pore",
    category: "acne-treatment",
    duration: 96,
    views: 9420,
    ageDays: 240,
    doctors: ["elena-rossi"],
    description: text(
      "Acne begins when oil and dead skin cells block a hair follicle. Bacteria that live normally on the skin multiply in the blocked pore and trigger inflammation.",
      section(
        "Why Treatments Work",
        "Retinoids keep pores open, benzoyl peroxide reduces bacteria, and oral treatments lower oil production or calm inflammation. The animation shows where each one acts.",
      ),
    ),
  },
  {
    title: "Isotretinoin Therapy for Severe Acne",
    category: "acne-treatment",
    duration: 132,
    views: 3380,
    ageDays: 112,
    doctors: ["elena-rossi"],
    description: text(
      "Isotretinoin is reserved for severe or scarring acne that has not responded to other treatments. It shrinks the oil glands and changes how the skin renews itself.",
      "A course usually lasts five to seven months. The animation explains the common side effects, such as dry lips and skin, and why regular blood tests and pregnancy prevention are part of the treatment.",
    ),
  },
  // Dermatology › Skin Cancer
  {
    title: "Recognising Melanoma: The ABCDE Rule",
    category: "skin-cancer",
    duration: 118,
    views: 12480,
    ageDays: 260,
    doctors: ["elena-rossi"],
    description: text(
      "Melanoma is the most dangerous form of skin cancer, but it is highly curable when found early. The ABCDE rule helps patients check their own moles.",
      section(
        "The Warning Signs",
        "Asymmetry, irregular Borders, uneven Colour, a Diameter larger than a pencil eraser and Evolution over time. The animation shows each sign next to a harmless mole.",
      ),
      "It ends with how a suspicious mole is removed and examined under the microscope.",
    ),
  },
  {
    title: "Mohs Micrographic Surgery",
    category: "skin-cancer",
    duration: 205,
    price: 349,
    views: 2960,
    ageDays: 75,
    doctors: ["elena-rossi"],
    description: text(
      "Mohs surgery removes skin cancer one thin layer at a time and examines every edge under the microscope while the patient waits.",
      section(
        "How The Procedure Works",
        "Each layer is mapped, frozen and read within the hour. Only where cancer remains is another layer taken, which spares as much healthy skin as possible on the face.",
      ),
      "The animation ends with the options for closing the wound: stitches, a local flap or a skin graft.",
    ),
  },
  // Dermatology › Laser Dermatology
  {
    title: "Fractional Laser Skin Resurfacing",
    category: "laser-dermatology",
    duration: 154,
    views: 4105,
    ageDays: 133,
    doctors: ["elena-rossi"],
    description: text(
      "Fractional lasers treat a grid of microscopic columns of skin and leave the surrounding skin intact, so healing is fast.",
      "The animation shows how the body replaces the treated columns with new collagen, improving fine lines, acne scars and uneven texture over several sessions.",
      "Redness for a few days and strict sun protection afterwards are part of every treatment plan.",
    ),
  },
  {
    title: "Laser Treatment of Vascular Lesions",
    category: "laser-dermatology",
    duration: 87,
    views: 640,
    ageDays: 21,
    doctors: ["elena-rossi"],
    description: text(
      "Broken veins, rosacea redness and port-wine stains are made of small blood vessels close to the surface.",
      "A pulsed dye laser is absorbed by the haemoglobin in these vessels, heats them and closes them while the skin around them is protected by a cooling spray.",
    ),
  },
  // Cardiology › Interventional Cardiology
  {
    title: "Coronary Angioplasty and Stent Placement",
    category: "interventional-cardiology",
    duration: 236,
    views: 15230,
    ageDays: 230,
    doctors: ["james-okafor"],
    description: text(
      "When a coronary artery is narrowed by plaque, the heart muscle it supplies can be starved of oxygen. Angioplasty reopens the artery from the inside.",
      section(
        "How The Procedure Works",
        "A thin catheter is passed from the wrist to the heart. A balloon is inflated across the narrowing and a drug-eluting stent is expanded to hold the artery open.",
      ),
      section(
        "After The Procedure",
        "Most patients go home the next day. The animation explains why two antiplatelet medicines must be taken exactly as prescribed while the stent heals into the artery wall.",
      ),
    ),
  },
  {
    title: "Cardiac Catheterization Explained",
    category: "interventional-cardiology",
    duration: 168,
    views: 5870,
    ageDays: 160,
    doctors: ["james-okafor"],
    description: text(
      "Cardiac catheterization is the test that shows exactly where and how much the coronary arteries are narrowed.",
      "Contrast dye is injected through a catheter and X-ray images are recorded as it flows through the arteries. Pressures inside the heart chambers can be measured at the same time.",
      "The animation covers preparation, the few minutes of the test itself and care of the puncture site afterwards.",
    ),
  },
  {
    title: "Fractional Flow Reserve Measurement",
    category: "interventional-cardiology",
    duration: 121,
    price: 249,
    views: 410,
    ageDays: 9,
    doctors: ["james-okafor"],
    description: text(
      "Not every narrowing seen on an angiogram needs a stent. Fractional flow reserve measures whether a narrowing really limits blood flow.",
      "A pressure wire is passed beyond the narrowing and the pressures on both sides are compared while the heart is working at its maximum. The animation shows how the result guides the decision.",
    ),
  },
  // Cardiology › Heart Valve Surgery
  {
    title: "Transcatheter Aortic Valve Replacement",
    category: "heart-valve-surgery",
    duration: 276,
    price: 349,
    views: 8790,
    ageDays: 215,
    doctors: ["james-okafor"],
    description: text(
      "In aortic stenosis the valve that lets blood out of the heart becomes stiff and narrow. TAVR replaces it without opening the chest.",
      section(
        "How The Procedure Works",
        "A new valve, folded onto a catheter, is guided from the groin to the heart and expanded inside the old valve, which is pushed aside and acts as an anchor.",
      ),
      "Many patients are walking the same day and home within two days.",
    ),
  },
  {
    title: "Mitral Valve Repair",
    category: "heart-valve-surgery",
    duration: 312,
    views: 2240,
    ageDays: 101,
    doctors: ["james-okafor"],
    description: text(
      "A leaking mitral valve lets blood flow backwards into the lungs. Repairing the patient's own valve usually works better than replacing it.",
      "The animation shows a prolapsing leaflet being reshaped, new artificial chords being placed and a ring being sewn around the valve to restore its shape.",
      "It also shows the transcatheter clip used for patients who cannot undergo open surgery.",
    ),
  },
  // Cardiology › Cardiac Rhythm Management
  {
    title: "Pacemaker Implantation",
    category: "cardiac-rhythm-management",
    duration: 184,
    views: 6620,
    ageDays: 180,
    doctors: ["james-okafor"],
    description: text(
      "A pacemaker keeps the heart from beating too slowly. It is placed under the skin below the collarbone in a short procedure under local anaesthetic.",
      section(
        "How The Procedure Works",
        "Leads are passed through a vein into the heart chambers and connected to the pulse generator, which senses every heartbeat and paces only when needed.",
      ),
      "The animation ends with wound care and the arm movements to avoid for the first weeks.",
    ),
  },
  {
    title: "Catheter Ablation for Atrial Fibrillation",
    category: "cardiac-rhythm-management",
    duration: 228,
    views: 3990,
    ageDays: 58,
    doctors: ["james-okafor"],
    description: text(
      "Atrial fibrillation is most often triggered by electrical signals from the pulmonary veins. Ablation isolates these veins from the rest of the heart.",
      "Catheters from the groin reach the left atrium, where rings of scar are created around each vein with heat or extreme cold. The animation shows how the chaotic signals are blocked.",
    ),
  },
  // Orthopedics › Joint Replacement
  {
    title: "Total Knee Replacement",
    category: "joint-replacement",
    duration: 264,
    views: 11340,
    ageDays: 225,
    doctors: ["michael-chen"],
    description: text(
      "When arthritis has worn away the cartilage of the knee, a total knee replacement resurfaces the joint with metal and plastic components.",
      section(
        "How The Procedure Works",
        "The damaged ends of the thigh bone and shin bone are shaped with precise cutting guides, the implants are fitted, and a plastic spacer recreates the smooth gliding surface.",
      ),
      section(
        "Recovery And Rehabilitation",
        "Physiotherapy starts on the day of surgery. The animation shows the exercises that restore bending and straightening in the first six weeks.",
      ),
    ),
  },
  {
    title: "Anterior Approach Hip Replacement",
    category: "joint-replacement",
    duration: 241,
    views: 7280,
    ageDays: 140,
    doctors: ["michael-chen"],
    description: text(
      "The anterior approach reaches the hip joint from the front, between muscles rather than through them.",
      "The worn ball is removed, a cup is placed in the socket and a stem with a new ball is fitted into the thigh bone. Because no muscle is detached, many patients walk with support the same day.",
    ),
  },
  // Orthopedics › Sports Medicine
  {
    title: "ACL Reconstruction",
    category: "sports-medicine",
    duration: 226,
    views: 9860,
    ageDays: 195,
    doctors: ["michael-chen"],
    description: text(
      "A torn anterior cruciate ligament leaves the knee unstable during pivoting sports. Reconstruction replaces it with a tendon graft.",
      section(
        "How The Procedure Works",
        "Through small arthroscopic portals, tunnels are drilled in the thigh and shin bones at the ligament's natural attachment points, and the graft is pulled through and fixed.",
      ),
      "Return to sport takes nine to twelve months; the animation shows the stages of rehabilitation along the way.",
    ),
  },
  {
    title: "Arthroscopic Rotator Cuff Repair",
    category: "sports-medicine",
    duration: 198,
    views: 4470,
    ageDays: 88,
    doctors: ["michael-chen"],
    description: text(
      "The rotator cuff tendons lift and rotate the arm. When one tears from the bone, the shoulder becomes weak and painful.",
      "Using a camera and small instruments, the surgeon places anchors in the bone and stitches the tendon back to its footprint. A sling protects the repair for about six weeks.",
    ),
  },
  // Orthopedics › Spine Surgery
  {
    title: "Lumbar Microdiscectomy",
    category: "spine-surgery",
    duration: 172,
    views: 5540,
    ageDays: 155,
    doctors: ["michael-chen", "thomas-becker"],
    description: text(
      "A herniated disc can press on a nerve root and cause sciatica: pain that travels down the leg. A microdiscectomy removes the part of the disc that presses on the nerve.",
      section(
        "How The Procedure Works",
        "Through a small incision and with a microscope, the surgeon opens a window in the bone, gently moves the nerve aside and removes the herniated fragment.",
      ),
      "Leg pain often improves as soon as the patient wakes up.",
    ),
  },
  {
    title: "Spinal Fusion Surgery",
    category: "spine-surgery",
    duration: 288,
    price: 349,
    views: 2880,
    ageDays: 64,
    doctors: ["thomas-becker", "michael-chen"],
    description: text(
      "Spinal fusion joins two or more vertebrae so that a painful or unstable segment no longer moves.",
      "Screws and rods hold the vertebrae in position while bone graft grows between them into a single solid bone. The animation shows a cage placed in the disc space and the fusion maturing over months.",
    ),
  },
  // Neurology › Stroke Care
  {
    title: "Ischemic Stroke: Recognising the Warning Signs",
    category: "stroke-care",
    duration: 104,
    views: 14210,
    ageDays: 250,
    doctors: ["priya-raman"],
    description: text(
      "In an ischaemic stroke a clot blocks an artery in the brain, and brain cells begin to die within minutes.",
      section(
        "Act FAST",
        "Face drooping, Arm weakness, Speech difficulty: Time to call emergency services. The animation shows what happens in the brain during each minute of delay.",
      ),
      "It ends with what happens on arrival at hospital: the brain scan that decides which treatment is possible.",
    ),
  },
  {
    title: "Mechanical Thrombectomy",
    category: "stroke-care",
    duration: 196,
    views: 3650,
    ageDays: 70,
    doctors: ["priya-raman"],
    description: text(
      "When a large artery in the brain is blocked, the clot can be removed directly. Mechanical thrombectomy can restore blood flow up to a day after symptoms begin in selected patients.",
      "A catheter is guided from the groin to the brain. A stent retriever opens inside the clot, grips it and is pulled back with it while suction is applied.",
    ),
  },
  // Neurology › Brain Surgery
  {
    title: "Craniotomy for Brain Tumor Removal",
    category: "brain-surgery",
    duration: 342,
    price: 349,
    views: 6120,
    ageDays: 210,
    doctors: ["thomas-becker"],
    description: text(
      "A craniotomy temporarily removes a piece of the skull so the surgeon can reach a tumour in the brain.",
      section(
        "How The Procedure Works",
        "Navigation images guide the opening. Under the microscope the tumour is separated from healthy brain, sometimes while the patient is awake so that speech and movement can be tested.",
      ),
      section(
        "After Surgery",
        "The bone flap is fixed back with small plates. Most patients stay in hospital for a few days and have a scan to confirm how much of the tumour was removed.",
      ),
    ),
  },
  {
    title: "Endovascular Coiling of a Brain Aneurysm",
    category: "brain-surgery",
    duration: 218,
    views: 2530,
    ageDays: 35,
    doctors: ["thomas-becker", "priya-raman"],
    description: text(
      "A brain aneurysm is a weak bulge in an artery wall that can rupture and bleed. Coiling seals it from the inside, without opening the skull.",
      "Tiny platinum coils are fed through a microcatheter into the aneurysm until it is packed, which stops blood from entering it. A stent may be used to keep the coils in place.",
    ),
  },
  // Neurology › Movement Disorders
  {
    title: "Deep Brain Stimulation for Parkinson's Disease",
    category: "movement-disorders",
    duration: 274,
    views: 4890,
    ageDays: 125,
    doctors: ["thomas-becker", "priya-raman"],
    description: text(
      "Deep brain stimulation reduces tremor, stiffness and slowness in Parkinson's disease by delivering small electrical pulses to precise targets deep in the brain.",
      section(
        "How The Procedure Works",
        "Thin electrodes are placed through two small openings in the skull, guided by imaging and by recordings of brain cell activity, and connected to a stimulator under the collarbone.",
      ),
      "Settings are adjusted over the following months to find the best balance of benefit and side effects.",
    ),
  },
  {
    title: "Understanding Essential Tremor",
    category: "movement-disorders",
    duration: 45,
    views: 130,
    ageDays: 5,
    doctors: ["priya-raman"],
    description: text(
      "Essential tremor is the most common movement disorder. It causes shaking of the hands during activity, such as writing or holding a cup.",
      "This short animation explains the brain circuits involved and the treatments available, from medication to focused ultrasound.",
    ),
  },
  // Withdrawn title: proves that inactive animations stay out of every public list.
  {
    title: "Laser Hair Removal Basics",
    category: "laser-dermatology",
    duration: 72,
    price: 199,
    views: 55,
    ageDays: 300,
    doctors: ["elena-rossi"],
    isActive: false,
    description: text(
      "Laser hair removal targets the pigment in the hair follicle and disables its ability to grow new hair.",
      "This title is being re-recorded and is currently unpublished.",
    ),
  },
];
